// Builds Ortak's front-end assets with esbuild's JS API:
//
//   style/main.css        -> <outdir>/main-HASH.css           (bundled @imports, minified)
//   islands/NAME.tsx      -> <outdir>/islands/NAME-HASH.js    (one ES module per island)
//   shared code (React)   -> <outdir>/chunks/NAME-HASH.js     (code splitting)
//   <outdir>/manifest.json   read by the server to emit <link>, <script type="module"> and
//                            <link rel="modulepreload"> tags
//
// <outdir> is $ORTAK_ASSETS_DIR or public/assets, relative to this file's folder (the repo root).
// It is emptied first, so stale hashed files never pile up.
//
// manifest.json:
//   {
//     "style":   "main-HASH.css",
//     "fonts":   ["media/inter-400-HASH.woff2", ...],
//     "islands": { "newsletter": "islands/newsletter-HASH.js", ... },
//     "chunks":  { "islands/newsletter-HASH.js": ["chunks/chunk-HASH.js", ...], ... }
//   }
// All paths are relative to <outdir> (the server serves <outdir> at /assets/). "chunks" lists,
// for each island entry, every chunk it loads through static imports, transitively, in a
// stable order: exactly the set worth a <link rel="modulepreload">.
//
// Files in islands/ whose name starts with "_" (e.g. _runtime.tsx) are shared modules, not
// entry points.
//
// Usage: node build.mjs   (or npm run build)

import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(root, process.env.ORTAK_ASSETS_DIR || 'public/assets');
const styleEntry = path.join(root, 'style', 'main.css');
const islandsDir = path.join(root, 'islands');

function fail(message) {
  console.error(`build.mjs: ${message}`);
  process.exit(1);
}

/** Path of an esbuild output (relative to absWorkingDir = root) relative to outdir, with "/". */
function outRel(metafileKey) {
  return path.relative(outdir, path.resolve(root, metafileKey)).split(path.sep).join('/');
}

// --- Checks before touching anything -------------------------------------------------------

// Emptying the output folder must never hit the repo itself or a parent of it.
if (outdir === path.parse(outdir).root || root === outdir || root.startsWith(outdir + path.sep)) {
  fail(`refusing to use ${outdir} as the output folder (it would delete the repository)`);
}

if (!existsSync(styleEntry)) {
  fail(`${path.relative(root, styleEntry)} is missing: it is the CSS entry point (style/main.css)`);
}

const islandFiles = (await readdir(islandsDir, { withFileTypes: true }))
  .filter((d) => d.isFile() && d.name.endsWith('.tsx') && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();
if (islandFiles.length === 0) fail('no islands/*.tsx entry points found');

const names = new Set();
for (const file of islandFiles) {
  const name = path.basename(file, '.tsx');
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) {
    fail(`island file name "${file}" must be lowercase letters, digits and dashes (it is the data-island name)`);
  }
  names.add(name);
}

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

// --- Build ----------------------------------------------------------------------------------

const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  minify: true,
  metafile: true,
  write: true,
  logLevel: 'warning',
};

/** Leaves url(/images/x.png) in CSS as is: the server serves public/ at the site root. */
const keepSiteAbsoluteUrls = {
  name: 'keep-site-absolute-urls',
  setup(build) {
    build.onResolve({ filter: /^\/[^/]/ }, (args) =>
      args.kind === 'url-token' ? { path: args.path, external: true } : undefined,
    );
  },
};

const [css, js] = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: [styleEntry],
    entryNames: '[name]-[hash]',
    assetNames: 'media/[name]-[hash]',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15'],
    // Fonts and images referenced from the CSS are copied next to it with hashed names;
    // site-absolute URLs (/images/...) are left alone for the server's public/ folder.
    loader: {
      '.woff2': 'file',
      '.woff': 'file',
      '.ttf': 'file',
      '.svg': 'file',
      '.png': 'file',
      '.jpg': 'file',
      '.jpeg': 'file',
      '.webp': 'file',
      '.avif': 'file',
      '.gif': 'file',
    },
    plugins: [keepSiteAbsoluteUrls],
  }),
  esbuild.build({
    ...common,
    entryPoints: islandFiles.map((f) => path.join(islandsDir, f)),
    entryNames: 'islands/[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    splitting: true,
    target: 'es2020',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
  }),
]).catch((err) => fail(err?.errors?.length ? 'esbuild failed (see the errors above)' : String(err?.stack ?? err)));

// --- Manifest -------------------------------------------------------------------------------

const styleOut = Object.entries(css.metafile.outputs).find(
  ([, o]) => o.entryPoint && path.resolve(root, o.entryPoint) === styleEntry,
);
if (!styleOut) fail('esbuild produced no CSS output for style/main.css');

const jsOutputs = js.metafile.outputs;
const islands = {};
const chunks = {};

/** Every chunk an output loads through static imports, depth first, each once. */
function staticChunks(key, seen = new Set()) {
  for (const imp of jsOutputs[key]?.imports ?? []) {
    if (imp.kind !== 'import-statement' || imp.external || seen.has(imp.path)) continue;
    seen.add(imp.path);
    staticChunks(imp.path, seen);
  }
  return seen;
}

for (const [key, output] of Object.entries(jsOutputs)) {
  if (!output.entryPoint || !key.endsWith('.js')) continue;
  const name = path.basename(output.entryPoint).replace(/\.tsx$/, '');
  if (!names.has(name)) continue;
  const rel = outRel(key);
  islands[name] = rel;
  chunks[rel] = [...staticChunks(key)].map(outRel);
}

for (const name of names) {
  if (!islands[name]) fail(`no output found for island "${name}"`);
}

const sortKeys = (obj) => Object.fromEntries(Object.entries(obj).sort(([a], [b]) => a.localeCompare(b)));
// The typeface files the stylesheet loads, preloaded by every page (both weights are above the fold).
const fonts = Object.keys(css.metafile.outputs).filter((key) => key.endsWith('.woff2')).map(outRel).sort();
const manifest = { style: outRel(styleOut[0]), fonts, islands: sortKeys(islands), chunks: sortKeys(chunks) };
await writeFile(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

const sizes = Object.entries({ ...css.metafile.outputs, ...jsOutputs })
  .filter(([key]) => !key.endsWith('.map'))
  .map(([key, o]) => `  ${outRel(key).padEnd(48)} ${(o.bytes / 1024).toFixed(1).padStart(7)} KiB`)
  .sort();
const shownDir = path.relative(root, outdir).startsWith('..') ? outdir : path.relative(root, outdir);
console.log(`Built ${shownDir}/:\n${sizes.join('\n')}\n  manifest.json`);
