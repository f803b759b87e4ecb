// Whether node_modules holds what package-lock.json asks for: after `git pull` of a version with new
// or updated packages, the build would otherwise fail on an import it cannot resolve ("Rolldown
// failed to resolve import openseadragon") without saying that `npm install` is the step missed.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The packages package-lock.json names that are not installed at its version, as
 * `name@version`; none when npm's own record of what it installed (node_modules/.package-lock.json)
 * is missing (another package manager), and never the optional ones (another platform's builds).
 */
export function packagesOutOfStep(root) {
  const read = (file) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
    } catch {
      return undefined;
    }
  };
  const wanted = read('package-lock.json');
  const installed = read('node_modules/.package-lock.json');
  if (!wanted?.packages || !installed?.packages) return [];
  const out = [];
  for (const [location, entry] of Object.entries(wanted.packages)) {
    if (!location.includes('node_modules/') || entry.optional || entry.link) continue;
    const have = installed.packages[location];
    if (have?.version !== entry.version) out.push(`${location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`);
  }
  return out;
}
