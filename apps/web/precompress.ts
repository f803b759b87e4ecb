import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Files smaller than this gain little from compression; the server sends them as they are. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every script and style sheet in
 * assets/. The server sends them as they are (@fastify/static preCompressed) instead of compressing
 * each request on the fly at a fast, weaker setting: the first load of a work area is ~13 % smaller
 * over a phone's connection (decision record 036). Hashed file names never change content, so the
 * compressed copies never go stale.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'siteboard:precompress',
    // The bundle test's builds measure gzipped sizes themselves: no copies needed there.
    apply: () => process.env.VITEST === undefined,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const assets = path.join(outDir, 'assets');
      const files = fs.readdirSync(assets).filter((file) => /\.(js|css)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const source = path.join(assets, file);
          const content = fs.readFileSync(source);
          if (content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          fs.writeFileSync(`${source}.br`, br);
          fs.writeFileSync(`${source}.gz`, gz);
        }),
      );
    },
  };
}
