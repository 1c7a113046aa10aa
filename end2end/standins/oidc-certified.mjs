#!/usr/bin/env node
// A certified OpenID Provider (panva's `oidc-provider`, OpenID Certified) run locally for the
// tests, in two modes. It listens on 127.0.0.1 (a free port) and talks to nothing else.
//
//   certified  oidc-provider's defaults: the ID token carries sub, nonce, aud, iss, iat, exp
//              only; e-mail and names come from the userinfo endpoint (`conformIdTokenClaims`).
//              PKCE is verified when a code_challenge was sent; the nonce is echoed; the
//              client is registered for client_secret_post (oidc-provider also accepts the
//              same secret sent with HTTP Basic: it treats the two as one method).
//   linkedin   what LinkedIn is publicly reported to do (see /work/notes/oidc.md): the issuer
//              has a path (`<origin>/oauth`, like https://www.linkedin.com/oauth); the
//              authorization request's `nonce` and `code_challenge` are ignored, so the ID
//              token has no `nonce`; a token request carrying `code_verifier`, or using HTTP
//              Basic client authentication, answers 401 {"error":"invalid_client"}; the ID
//              token carries email, email_verified (as the string "true"/"false"), given_name,
//              family_name and name; userinfo has them too, with a boolean email_verified.
//
// Use from Node:
//   const op = await startCertifiedProvider({ mode: 'certified', clientId: 'ortak-test',
//     clientSecret: 'stand-in-secret', redirectUri: 'http://127.0.0.1:3000/signin/oidc/callback',
//     accounts: [{ sub: '42', email: 'a@example.com', given_name: 'Ada', family_name: 'Kaya' }] });
//   op.issuer; op.setAccount({...}); op.setRedirectUris([...]); op.log; await op.close();
//
// Use from a test in another language:
//   node end2end/standins/oidc-certified.mjs --mode certified|linkedin --client-id X
//     --client-secret Y [--redirect-uri URL]... [--account JSON] [--issuer-path /oauth]
//     [--port N] [--exit-with-stdin]
//   prints exactly one line to stdout, `oidc provider listening on <issuer>` (certified:
//   http://127.0.0.1:PORT, linkedin: http://127.0.0.1:PORT/oauth); everything else goes to
//   stderr. SIGTERM/SIGINT stop it; with --exit-with-stdin it also stops when stdin closes.
//
// Admin endpoints (JSON; served at <origin>/stand-in/... and <issuer>/stand-in/...; not logged):
//   GET    /stand-in/account  the account the next sign-in uses
//   POST   /stand-in/account  replaces it: {"sub", "email", "email_verified", "given_name",
//                             "family_name", "name"?, "deny"?}; omitted fields take defaults,
//                             null removes a claim; "deny": true makes the next authorization
//                             answer error=access_denied (a string picks another error code,
//                             e.g. "user_cancelled_authorize")
//   GET    /stand-in/client   the registered client
//   POST   /stand-in/client   {"redirect_uris": [...]} (or {"redirect_uri": "..."}) replaces the
//                             registered redirect URIs. With none registered, the first
//                             authorization request's loopback redirect_uri is registered.
//   GET    /stand-in/log      every other request: [{method, path, status, query?: [names],
//                             params?: [token request body names], error?, error_description?,
//                             error_detail?}] (error*: the provider's refusal, e.g. invalid_grant
//                             with error_detail "PKCE verification failed")
//   DELETE /stand-in/log      empties the log
//
// The hop sequence for a plain HTTP client with a cookie store and no automatic redirects
// (paths relative to the issuer; every provider answer is 303):
//   1. GET  <ortak>/signin/oidc                 -> 303 <issuer>/auth?response_type=code&...
//   2. GET  <issuer>/auth?...                   -> 303 <issuer>/interaction/<uid>
//        sets _interaction (path /interaction/<uid>) and _interaction_resume (path /auth/<uid>)
//   3. GET  <issuer>/interaction/<uid>          -> 303 <issuer>/auth/<uid>
//        (the stand-in signs the preset account in and grants every requested scope)
//   4. GET  <issuer>/auth/<uid>                 -> 303 <redirect_uri>?code=...&state=...&iss=...
//        (or ?error=access_denied&error_description=...&state=...&iss=... when the account
//        has "deny"); sets _session
//   5. GET  <redirect_uri>?code=...              Ortak's callback, which then calls
//        GET <issuer>/.well-known/openid-configuration, POST <issuer>/token,
//        GET <issuer>/jwks and (to read claims) GET <issuer>/me (the userinfo endpoint).
//   So: follow Location while it starts with the issuer; the first other Location is the
//   callback. Every authorization goes through steps 2-4 (the stand-in always re-signs the
//   preset account in), so a test may change the account between sign-ins with one cookie jar.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Provider, { interactionPolicy } from 'oidc-provider';

const HOST = '127.0.0.1';
const MODES = new Set(['certified', 'linkedin']);
const ERROR_EVENTS = [
  'authorization.error',
  'grant.error',
  'userinfo.error',
  'discovery.error',
  'jwks.error',
  'server_error',
];

const DEFAULT_ACCOUNT = {
  sub: 'stand-in-user',
  email: 'member@example.com',
  email_verified: true,
  given_name: 'Deniz',
  family_name: 'Aksoy',
};

/** Fills an account from the defaults; null removes a claim. */
function normalizeAccount(input = {}) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError('an account is a JSON object');
  }
  const account = { ...DEFAULT_ACCOUNT, ...input };
  if (typeof account.sub !== 'string' || !account.sub) throw new TypeError('sub must be a non-empty string');
  for (const [key, value] of Object.entries(account)) {
    if (value === null || value === undefined) delete account[key];
  }
  return account;
}

/** The claims an account asserts; `linkedin` sends email_verified as a string in ID tokens. */
function claimsOf(account, mode, use) {
  const claims = {};
  for (const key of ['sub', 'email', 'email_verified', 'given_name', 'family_name', 'name', 'picture', 'locale']) {
    if (account[key] !== undefined) claims[key] = account[key];
  }
  if (claims.name === undefined && (account.given_name || account.family_name)) {
    claims.name = [account.given_name, account.family_name].filter(Boolean).join(' ');
  }
  if (mode === 'linkedin' && use === 'id_token' && typeof claims.email_verified === 'boolean') {
    claims.email_verified = String(claims.email_verified);
  }
  return claims;
}

/** A per-provider in-memory adapter; the Client model serves the stand-in's one client. */
function memoryAdapter(clientMetadata) {
  const store = new Map();
  const grants = new Map(); // grantId -> Set of keys
  const expiry = new Map(); // key -> epoch ms
  const get = (key) => {
    const at = expiry.get(key);
    if (at !== undefined && at <= Date.now()) {
      store.delete(key);
      expiry.delete(key);
    }
    return store.get(key);
  };
  return class Adapter {
    constructor(model) {
      this.model = model;
    }
    key(id) {
      return `${this.model}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      const key = this.key(id);
      store.set(key, payload);
      if (expiresIn) expiry.set(key, Date.now() + expiresIn * 1000);
      else expiry.delete(key);
      if (this.model === 'Session' && payload.uid) store.set(`sessionUid:${payload.uid}`, id);
      if (payload.userCode) store.set(`userCode:${payload.userCode}`, id);
      if (payload.grantId) {
        if (!grants.has(payload.grantId)) grants.set(payload.grantId, new Set());
        grants.get(payload.grantId).add(key);
      }
    }
    async find(id) {
      if (this.model === 'Client') return id === clientMetadata().client_id ? clientMetadata() : undefined;
      return get(this.key(id));
    }
    async findByUid(uid) {
      const id = store.get(`sessionUid:${uid}`);
      return id === undefined ? undefined : this.find(id);
    }
    async findByUserCode(userCode) {
      const id = store.get(`userCode:${userCode}`);
      return id === undefined ? undefined : this.find(id);
    }
    async consume(id) {
      const payload = get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id) {
      store.delete(this.key(id));
      expiry.delete(this.key(id));
    }
    async revokeByGrantId(grantId) {
      for (const key of grants.get(grantId) ?? []) {
        store.delete(key);
        expiry.delete(key);
      }
      grants.delete(grantId);
    }
  };
}

/** Reads a small request body. */
async function readBody(req, limit = 64 * 1024) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function isLoopbackUrl(value) {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Starts the provider.
 * @param {{mode?: 'certified'|'linkedin', clientId?: string, clientSecret?: string,
 *   redirectUri?: string|string[], accounts?: object|object[], issuerPath?: string,
 *   port?: number, log?: (line: string) => void}} [options]
 */
export async function startCertifiedProvider({
  mode = 'certified',
  clientId = 'ortak-test',
  clientSecret = 'stand-in-secret',
  redirectUri,
  accounts,
  issuerPath,
  port = 0,
  log: debugLog = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  if (!MODES.has(mode)) throw new TypeError(`mode must be certified or linkedin, not ${mode}`);
  const prefix = (issuerPath ?? (mode === 'linkedin' ? '/oauth' : '')).replace(/\/+$/, '');
  if (prefix && !/^\/[A-Za-z0-9._~\/-]+$/.test(prefix)) throw new TypeError(`bad issuer path ${prefix}`);

  const accountList = (Array.isArray(accounts) ? accounts : [accounts ?? {}]).map(normalizeAccount);
  const known = new Map(accountList.map((a) => [a.sub, a])); // every account ever signed in
  let current = accountList[0];
  let redirectUris = (Array.isArray(redirectUri) ? redirectUri : [redirectUri]).filter(Boolean);
  const requestLog = [];

  const clientMetadata = () => ({
    client_id: clientId,
    client_secret: clientSecret,
    // Until one is registered, a placeholder no request can match.
    redirect_uris: redirectUris.length ? redirectUris : ['http://127.0.0.1/redirect-uri-not-registered'],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_post',
  });

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };

  // Every authorization request signs the preset account in again (login prompt, new check).
  const policy = interactionPolicy.base();
  policy.get('login').checks.add(
    new interactionPolicy.Check('stand_in_account', 'the stand-in signs its preset account in', (ctx) => !ctx.oidc.result?.login),
  );

  const server = http.createServer();
  server.listen(port, HOST);
  await once(server, 'listening');
  const origin = `http://${HOST}:${server.address().port}`;
  const issuer = `${origin}${prefix}`;

  const configuration = {
    adapter: memoryAdapter(clientMetadata),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'picture', 'locale'],
    },
    // The certified default (true): the ID token carries scope claims only when no access
    // token is issued; LinkedIn puts them in the ID token.
    conformIdTokenClaims: mode !== 'linkedin',
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
    },
    interactions: {
      policy,
      // Absolute, so that every Location the provider sends is absolute.
      url: (_ctx, interaction) => `${issuer}/interaction/${interaction.uid}`,
    },
    findAccount: (_ctx, sub) => {
      const account = known.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: (use) => claimsOf(account, mode, use) };
    },
    clientBasedCORS: () => false,
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
    // oidc-provider's default lifetimes, as numbers (the default functions print notices).
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 3600, Grant: 1209600, Session: 1209600 },
    ...(mode === 'linkedin' ? { clientAuthMethods: ['client_secret_post'] } : {}),
  };

  const provider = new Provider(issuer, configuration);
  const recordParams = (ctx) => {
    const entry = ctx?.req?.standInEntry;
    const params = ctx?.oidc?.params;
    if (entry && !entry.params && ctx.method === 'POST' && params) {
      entry.params = Object.keys(params).filter((k) => params[k] !== undefined);
    }
  };
  for (const event of ERROR_EVENTS) {
    provider.on(event, (ctx, err) => {
      const entry = ctx?.req?.standInEntry;
      recordParams(ctx);
      if (entry) {
        entry.error = err?.error ?? 'server_error';
        if (err?.error_description) entry.error_description = err.error_description;
        if (err?.error_detail) entry.error_detail = err.error_detail;
      }
      if (event === 'server_error') debugLog(`oidc stand-in: server error: ${err?.stack ?? err}`);
    });
  }
  provider.on('grant.success', recordParams);

  if (mode === 'linkedin') {
    // LinkedIn refuses PKCE on confidential web apps: 401 invalid_client when the token
    // request carries code_verifier. The body is read here and handed on as req.body, which
    // oidc-provider accepts in place of the stream.
    provider.use(async (ctx, next) => {
      if (ctx.method === 'POST' && ctx.path === '/token') {
        const raw = await readBody(ctx.req);
        ctx.req.body = raw;
        const params = new URLSearchParams(raw);
        const entry = ctx.req.standInEntry;
        if (entry) entry.params = [...new Set(params.keys())];
        // Reported too: HTTP Basic client authentication is not accepted.
        const basic = /^basic /i.test(ctx.get('authorization'));
        if (params.has('code_verifier') || basic) {
          const refusal = { error: 'invalid_client', error_description: 'Client authentication failed' };
          ctx.status = 401;
          ctx.set('cache-control', 'no-store');
          ctx.body = refusal;
          if (entry) Object.assign(entry, refusal);
          return;
        }
      }
      await next();
    });
  }

  const callback = provider.callback();

  async function interaction(req, res) {
    const details = await provider.interactionDetails(req, res);
    const account = current;
    known.set(account.sub, account);
    if (account.deny) {
      const error = typeof account.deny === 'string' ? account.deny : 'access_denied';
      await provider.interactionFinished(
        req,
        res,
        { error, error_description: 'The end-user denied the request' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.session?.accountId && details.session.accountId !== account.sub) {
      // Another account is signed in with this browser: oidc-provider would answer with a
      // logout form that needs JavaScript. End that session here instead.
      const previous = await provider.Session.findByUid(details.session.uid);
      if (previous) await previous.destroy();
      delete details.session.uid;
      await details.save(details.exp - Math.floor(Date.now() / 1000));
    }
    const { params, prompt } = details;
    let grant = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    if (!grant || grant.accountId !== account.sub) {
      grant = new provider.Grant({ accountId: account.sub, clientId: params.client_id });
    }
    if (params.scope) grant.addOIDCScope(params.scope);
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function admin(req, res, path) {
    const body = async () => {
      try {
        return JSON.parse((await readBody(req)) || '{}');
      } catch {
        throw new TypeError('the body must be JSON');
      }
    };
    try {
      if (path === '/stand-in/account' && req.method === 'GET') return sendJson(res, 200, current);
      if (path === '/stand-in/account' && req.method === 'POST') {
        current = normalizeAccount(await body());
        known.set(current.sub, current);
        return sendJson(res, 200, current);
      }
      if (path === '/stand-in/client' && req.method === 'GET') return sendJson(res, 200, { ...clientMetadata(), redirect_uris: redirectUris });
      if (path === '/stand-in/client' && req.method === 'POST') {
        const input = await body();
        const uris = input.redirect_uris ?? (input.redirect_uri ? [input.redirect_uri] : undefined);
        if (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string' && URL.canParse(u))) {
          throw new TypeError('redirect_uris must be an array of URLs');
        }
        redirectUris = uris;
        return sendJson(res, 200, { ...clientMetadata(), redirect_uris: redirectUris });
      }
      if (path === '/stand-in/log' && req.method === 'GET') return sendJson(res, 200, requestLog);
      if (path === '/stand-in/log' && req.method === 'DELETE') {
        requestLog.length = 0;
        res.writeHead(204).end();
        return undefined;
      }
      return sendJson(res, 404, { error: 'not_found' });
    } catch (err) {
      return sendJson(res, 400, { error: 'invalid_request', error_description: err.message });
    }
  }

  server.on('request', async (req, res) => {
    const url = new URL(req.url, origin);
    let path = url.pathname;
    if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length) || '/';
    else if (prefix && !path.startsWith('/stand-in/')) path = null; // outside the issuer

    if (path?.startsWith('/stand-in/')) return admin(req, res, path);

    const entry = { method: req.method, path: url.pathname, status: 0 };
    if (url.search) entry.query = [...new Set(url.searchParams.keys())];
    requestLog.push(entry);
    req.standInEntry = entry;
    const end = res.end;
    res.end = function endAndLog(...args) {
      entry.status = res.statusCode;
      return end.apply(this, args);
    };

    try {
      if (path === null) return sendJson(res, 404, { error: 'not_found' });
      if (req.method === 'GET' && /^\/interaction\/[^/]+$/.test(path)) return await interaction(req, res);

      if (req.method === 'GET' && path === '/auth') {
        const redirect = url.searchParams.get('redirect_uri');
        if (!redirectUris.length && redirect && isLoopbackUrl(redirect)) {
          redirectUris = [redirect];
          debugLog(`oidc stand-in: registered redirect_uri ${redirect}`);
        }
        if (mode === 'linkedin') {
          // LinkedIn ignores these on confidential web apps: no nonce in the ID token, and
          // the code is not bound to a PKCE challenge.
          for (const name of ['nonce', 'code_challenge', 'code_challenge_method']) url.searchParams.delete(name);
        }
      }
      // Mounted below `prefix`: oidc-provider reads the mount path from originalUrl.
      req.url = `${path}${url.search && url.searchParams.size ? `?${url.searchParams}` : ''}`;
      req.originalUrl = `${prefix}${req.url}`;
      return await callback(req, res);
    } catch (err) {
      const expected = err?.statusCode && err.statusCode < 500;
      debugLog(`oidc stand-in: ${req.method} ${url.pathname}: ${expected ? `${err.error}: ${err.error_description}` : err?.stack ?? err}`);
      if (!res.headersSent) {
        return sendJson(res, err?.statusCode ?? 500, {
          error: err?.error ?? 'server_error',
          error_description: err?.error_description ?? String(err?.message ?? err),
        });
      }
      res.destroy();
      return undefined;
    }
  });

  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return {
    mode,
    issuer,
    origin,
    clientId,
    clientSecret,
    provider,
    /** Every request except the admin ones, in order. */
    log: requestLog,
    get account() {
      return current;
    },
    /** Replaces the account the next sign-in uses (see POST /stand-in/account). */
    setAccount(account) {
      current = normalizeAccount(account);
      known.set(current.sub, current);
      return current;
    },
    get redirectUris() {
      return [...redirectUris];
    },
    setRedirectUris(uris) {
      redirectUris = [...uris];
    },
    /** Environment for Ortak. */
    serverEnv: {
      ORTAK_OIDC_ISSUER: issuer,
      ORTAK_OIDC_CLIENT_ID: clientId,
      ORTAK_OIDC_CLIENT_SECRET: clientSecret,
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string', default: 'certified' },
      'client-id': { type: 'string', default: 'ortak-test' },
      'client-secret': { type: 'string', default: 'stand-in-secret' },
      'redirect-uri': { type: 'string', multiple: true },
      account: { type: 'string' },
      'issuer-path': { type: 'string' },
      port: { type: 'string', default: '0' },
      'exit-with-stdin': { type: 'boolean', default: false },
    },
    strict: true,
  });
  // stdout carries exactly one line; oidc-provider's notices (console.info) go to stderr.
  console.info = console.log = (...args) => console.error(...args);
  process.stdout.on('error', () => {});

  const op = await startCertifiedProvider({
    mode: values.mode,
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    redirectUri: values['redirect-uri'],
    accounts: values.account ? JSON.parse(values.account) : undefined,
    issuerPath: values['issuer-path'],
    port: Number(values.port),
  });
  process.stdout.write(`oidc provider listening on ${op.issuer}\n`);

  const stop = async () => {
    await op.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (values['exit-with-stdin']) {
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.resume();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    process.stderr.write(`oidc stand-in: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
