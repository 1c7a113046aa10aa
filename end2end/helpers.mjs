// Shared helpers for Ortak's browser end-to-end tests (node --test + playwright-core + Debian's
// Chromium). Each test file starts its own server on a free loopback port with a fresh data
// folder, and its own browser; nothing talks to anything but 127.0.0.1.
//
// Environment:
//   ORTAK_BIN        the server binary (default target/debug/ortak, relative to the repo root)
//   CHROMIUM_PATH    the browser (default /usr/bin/chromium)
//   ORTAK_E2E_LOG=1  echo the server's output while the tests run
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const HOST = '127.0.0.1';
const STARTUP_TIMEOUT_MS = 30_000;

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * GET url without keep-alive (a pooled idle socket would keep the test process alive for
 * seconds after the last test); resolves to the status, or 0 if nothing answered.
 */
function healthStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `bin args…` to completion with `env`; resolves to its output, rejects (with the output)
 * if it fails or takes longer than 60 s.
 */
function runToEnd(bin, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`ortak ${args.join(' ')} failed (${code ?? signal}):\n${out}`));
    });
  });
}

/**
 * Starts `ortak serve` on a free port with a fresh data folder and the demo content, and waits
 * until GET /healthz answers 200.
 *
 * `beforeStart({ dataDir, run })`, if given, is awaited before the server starts; `run(args)`
 * runs another `ortak` subcommand on the same data folder and environment, e.g.
 *   startServer({ beforeStart: ({ run }) => run(['create-admin', '--create', '--email', e, '--password', p, '--super']) })
 * @param {{env?: Record<string, string>, beforeStart?: (s: {dataDir: string, run: (args: string[]) => Promise<string>}) => Promise<unknown>}} [options]
 * @returns {Promise<{baseURL: string, dataDir: string, url: (p: string) => string, output: () => string, stop: () => Promise<void>}>}
 */
export async function startServer({ env = {}, beforeStart } = {}) {
  const bin = path.resolve(repoRoot, process.env.ORTAK_BIN || 'target/debug/ortak');
  if (!existsSync(bin)) {
    throw new Error(`server binary ${bin} not found: run \`cargo build\` (or set ORTAK_BIN)`);
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ortak-e2e-'));
  const port = await freePort();
  const baseURL = `http://${HOST}:${port}`;

  const childEnv = {
    ...process.env,
    ORTAK_ADDR: `${HOST}:${port}`,
    ORTAK_DATA_DIR: dataDir,
    ORTAK_DEMO: '1',
    RUST_LOG: 'warn',
    ...env,
  };

  if (beforeStart) {
    try {
      await beforeStart({ dataDir, run: (args) => runToEnd(bin, args, childEnv) });
    } catch (err) {
      await rm(dataDir, { recursive: true, force: true });
      throw err;
    }
  }

  const child = spawn(bin, ['serve'], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  // Never leave the server behind, even when the test process dies or times out.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  // Keep the last 64 KiB of output to explain failures.
  let log = '';
  const collect = (chunk) => {
    const text = chunk.toString();
    if (process.env.ORTAK_E2E_LOG) process.stderr.write(text);
    log = (log + text).slice(-65_536);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  let exited = null;
  let stopping = false;
  let ready = false;
  const exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      process.off('exit', killOnExit);
      if (ready && !stopping) {
        // The tests will fail with connection errors; say why.
        process.stderr.write(`\nortak serve (${baseURL}) exited unexpectedly (${JSON.stringify(exited)}); its last output:\n${log}\n`);
      }
      resolve(exited);
    });
    child.on('error', (err) => {
      exited = { error: err };
      resolve(exited);
    });
  });

  async function stop() {
    stopping = true;
    if (!exited) {
      child.kill('SIGTERM');
      let timer;
      const done = await Promise.race([
        exitPromise,
        new Promise((resolve) => {
          timer = setTimeout(resolve, 5_000, null);
        }),
      ]);
      clearTimeout(timer);
      if (!done) {
        child.kill('SIGKILL');
        await exitPromise;
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      await rm(dataDir, { recursive: true, force: true });
      throw new Error(`ortak serve exited during start-up (${JSON.stringify(exited)}):\n${log}`);
    }
    if ((await healthStatus(`${baseURL}/healthz`)) === 200) {
      ready = true;
      break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`ortak serve did not answer ${baseURL}/healthz with 200 within 30 s:\n${log}`);
    }
    await sleep(100);
  }

  return {
    baseURL,
    /** The server's data folder (database, uploads); removed by stop(). */
    dataDir,
    url: (p) => new URL(p, baseURL).href,
    output: () => log,
    stop,
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Belt and braces: no proxy, and no host name resolves (the tests use 127.0.0.1 only).
  '--no-proxy-server',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Launches Debian's Chromium through playwright-core (never a downloaded browser). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/**
 * A new browser context whose pages fail fast (10 s per action) and which records every request
 * that is not to 127.0.0.1 in `context.offsite` (see assertOnlyLoopback).
 * @param {import('playwright-core').Browser} browser
 * @param {import('playwright-core').BrowserContextOptions} [options]
 */
export async function newContext(browser, options = {}) {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  context.offsite = [];
  context.on('request', (req) => {
    const url = new URL(req.url());
    // Chromium's own pages and resources (its PDF viewer is an extension) load nothing from the
    // network.
    if (['data:', 'blob:', 'about:', 'chrome:', 'chrome-extension:'].includes(url.protocol)) return;
    if (url.hostname !== HOST) context.offsite.push(req.url());
  });
  return context;
}

/** Throws if a page of the context requested anything but 127.0.0.1. */
export function assertOnlyLoopback(context) {
  if (context.offsite.length > 0) {
    throw new Error(`requests left 127.0.0.1:\n  ${context.offsite.join('\n  ')}`);
  }
}

/** Clicks and waits for the navigation the click causes; returns that navigation's response. */
export async function clickAndNavigate(page, selector) {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response;
}

/** Opens the actions menu of a staff table's row (`row` selects its <tr>). */
export async function openRowMenu(page, row) {
  const menu = page.locator(`${row} details.row-menu`);
  if ((await menu.getAttribute('open')) === null) await page.click(`${row} details.row-menu > summary`);
}

/** `path` with ?lang=LANG set (keeps other query parameters). */
export function withLang(p, lang) {
  const u = new URL(p, 'http://x');
  u.searchParams.set('lang', lang);
  return u.pathname + u.search;
}

/** Waits until the island `name` has been mounted by React (set by islands/_runtime.tsx). */
export async function waitForIsland(page, name) {
  await page.waitForSelector(`[data-island="${name}"][data-island-ready="1"]`, { state: 'attached' });
}

/** An e-mail address no earlier test run has used. */
export function uniqueEmail(tag = 'e2e') {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}
