import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { ResolvedConfig } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { precompress } from '../precompress';

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-precompress-'));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe("the build's compressed copies", () => {
  it('writes brotli and gzip copies of the scripts and styles that decompress to the same bytes, smaller than on the fly', async () => {
    fs.mkdirSync(path.join(outDir, 'assets'));
    const script = Array.from({ length: 400 }, (_, index) => `export const value${index} = ${JSON.stringify(`SiteBoard ${index % 7}`)};`).join('\n');
    const style = '.card{padding:1rem;border-radius:.5rem}'.repeat(100);
    fs.writeFileSync(path.join(outDir, 'assets', 'index-abc.js'), script);
    fs.writeFileSync(path.join(outDir, 'assets', 'index-abc.css'), style);
    fs.writeFileSync(path.join(outDir, 'assets', 'tiny-abc.js'), 'export {};');
    fs.writeFileSync(path.join(outDir, 'assets', 'slide.svg'), '<svg/>');

    const plugin = precompress();
    (plugin.configResolved as (config: ResolvedConfig) => void)({ root: outDir, build: { outDir: '.' } } as ResolvedConfig);
    await (plugin.writeBundle as () => Promise<void>)();

    const read = (name: string) => fs.readFileSync(path.join(outDir, 'assets', name));
    expect(zlib.brotliDecompressSync(read('index-abc.js.br')).toString()).toBe(script);
    expect(zlib.gunzipSync(read('index-abc.js.gz')).toString()).toBe(script);
    expect(zlib.brotliDecompressSync(read('index-abc.css.br')).toString()).toBe(style);
    // Stronger than the server's on-the-fly brotli (quality 4).
    const onTheFly = zlib.brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(read('index-abc.js.br').length).toBeLessThan(onTheFly.length);
    // Files under 1 KB and files that are not scripts or styles are left alone.
    expect(fs.existsSync(path.join(outDir, 'assets', 'tiny-abc.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(outDir, 'assets', 'slide.svg.br'))).toBe(false);
  });
});
