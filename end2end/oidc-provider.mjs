// A stand-in OpenID Connect provider for the browser end-to-end tests ("LinkedIn" on screen):
// discovery, an authorization endpoint that signs the user in at once, a token endpoint that
// checks the client secret and PKCE, and RS256-signed ID tokens verifiable with its JWKS.
// It listens on 127.0.0.1 (a free port) and talks to nothing else.
//
//   const provider = await startOidcProvider({ clientId: 'ortak-e2e', clientSecret: 's3cret' });
//   const server = await startServer({ env: provider.serverEnv });
//   provider.user = { sub: '42', email: 'a@example.com', given_name: 'Ada', family_name: 'Kaya' };
//   provider.emailVerified = false;   // the next ID token says email_verified: false
//   provider.tweak = { payload: { aud: 'someone-else' } };   // a bad ID token, for refusals
//
// Every request and every refusal is recorded in provider.log (method, path, status, why) so a
// test can see what the server asked and whether the provider objected.
import { createHash, createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import http from 'node:http';

const HOST = '127.0.0.1';
const KID = 'stand-in';

const b64url = (buffer) => Buffer.from(buffer).toString('base64url');
const b64urlJson = (value) => b64url(JSON.stringify(value));

/** Reads a request body (small: form posts only) as a string. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > 64 * 1024) {
        reject(new Error('body too large'));
        req.destroy();
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts the provider.
 * @param {{clientId?: string, clientSecret?: string}} [options]
 */
export function startOidcProvider({ clientId = 'ortak-e2e', clientSecret = randomBytes(18).toString('base64url') } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  /** code -> {nonce, code_challenge, redirect_uri, user, emailVerified} (single use). */
  const codes = new Map();
  const log = [];
  const sockets = new Set();

  const provider = {
    clientId,
    clientSecret,
    issuer: '', // set once listening
    /** The identity the next authorization signs in. */
    user: { sub: 'stand-in-user', email: 'member@example.com', given_name: 'Deniz', family_name: 'Aksoy' },
    /** What the next ID token says about the e-mail address. */
    emailVerified: true,
    /**
     * Makes the ID tokens wrong on purpose (null: correct ones): `header` and `payload` fields
     * override the usual ones (undefined removes one), and `signer` is 'foreign' (a key the
     * JWKS does not publish) or 'hs256' (HMAC with the public modulus as the secret).
     * @type {null | {header?: object, payload?: object, signer?: 'foreign' | 'hs256'}}
     */
    tweak: null,
    log,
    /** Environment for startServer. */
    serverEnv: {},
    close: null,
  };

  function idToken(grant) {
    const now = Math.floor(Date.now() / 1000);
    const tweak = provider.tweak ?? {};
    const header = { alg: 'RS256', typ: 'JWT', kid: KID, ...tweak.header };
    const payload = {
      iss: provider.issuer,
      aud: clientId,
      sub: grant.user.sub,
      iat: now,
      exp: now + 300,
      nonce: grant.nonce,
      email: grant.user.email,
      email_verified: grant.emailVerified,
      given_name: grant.user.given_name,
      family_name: grant.user.family_name,
      ...tweak.payload,
    };
    const signingInput = `${b64urlJson(header)}.${b64urlJson(payload)}`;
    const signature =
      tweak.signer === 'hs256'
        ? createHmac('sha256', jwk.n).update(signingInput).digest()
        : sign('sha256', Buffer.from(signingInput), tweak.signer === 'foreign' ? foreign : privateKey);
    return `${signingInput}.${b64url(signature)}`;
  }

  function json(res, status, body, extra = {}) {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra });
    res.end(JSON.stringify(body));
  }

  async function handle(req, res) {
    const url = new URL(req.url, provider.issuer);
    const entry = { method: req.method, path: url.pathname, status: 0, why: '' };
    log.push(entry);
    const refuse = (status, why, error = 'invalid_request') => {
      entry.status = status;
      entry.why = why;
      json(res, status, { error, error_description: why });
    };

    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      entry.status = 200;
      return json(res, 200, {
        issuer: provider.issuer,
        authorization_endpoint: `${provider.issuer}/authorize`,
        token_endpoint: `${provider.issuer}/token`,
        jwks_uri: `${provider.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }

    if (req.method === 'GET' && url.pathname === '/jwks') {
      entry.status = 200;
      return json(res, 200, { keys: [{ kty: 'RSA', kid: KID, use: 'sig', alg: 'RS256', n: jwk.n, e: jwk.e }] });
    }

    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('response_type') !== 'code') return refuse(400, `response_type=${q.get('response_type')}`, 'unsupported_response_type');
      if (q.get('client_id') !== clientId) return refuse(400, `client_id=${q.get('client_id')}`, 'unauthorized_client');
      if (q.get('code_challenge_method') !== 'S256') return refuse(400, `code_challenge_method=${q.get('code_challenge_method')}`);
      if (!q.get('code_challenge')) return refuse(400, 'no code_challenge');
      if (!q.get('redirect_uri')) return refuse(400, 'no redirect_uri');
      if (!(q.get('scope') ?? '').split(' ').includes('openid')) return refuse(400, `scope=${q.get('scope')}`, 'invalid_scope');
      const code = randomBytes(24).toString('base64url');
      codes.set(code, {
        nonce: q.get('nonce') ?? undefined,
        code_challenge: q.get('code_challenge'),
        redirect_uri: q.get('redirect_uri'),
        user: { ...provider.user },
        emailVerified: provider.emailVerified,
      });
      const back = new URL(q.get('redirect_uri'));
      back.searchParams.set('code', code);
      if (q.has('state')) back.searchParams.set('state', q.get('state'));
      entry.status = 303;
      res.writeHead(303, { location: back.href, 'cache-control': 'no-store' });
      return res.end();
    }

    if (req.method === 'POST' && url.pathname === '/token') {
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('application/x-www-form-urlencoded')) return refuse(400, `content-type ${type}`);
      const form = new URLSearchParams(await readBody(req));
      // client_secret_post; client_secret_basic is accepted too.
      let [id, secret] = [form.get('client_id'), form.get('client_secret')];
      const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
      if (basic) {
        const [u, p] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
        [id, secret] = [decodeURIComponent(u), decodeURIComponent(p ?? '')];
      }
      if (id !== clientId || secret !== clientSecret) return refuse(401, 'wrong client credentials', 'invalid_client');
      if (form.get('grant_type') !== 'authorization_code') return refuse(400, `grant_type=${form.get('grant_type')}`, 'unsupported_grant_type');
      const grant = codes.get(form.get('code') ?? '');
      if (!grant) return refuse(400, 'unknown or used code', 'invalid_grant');
      codes.delete(form.get('code'));
      if (form.get('redirect_uri') !== grant.redirect_uri) return refuse(400, 'redirect_uri differs', 'invalid_grant');
      const verifier = form.get('code_verifier') ?? '';
      if (b64url(createHash('sha256').update(verifier).digest()) !== grant.code_challenge) {
        return refuse(400, 'PKCE verifier does not match the challenge', 'invalid_grant');
      }
      entry.status = 200;
      return json(res, 200, {
        access_token: randomBytes(24).toString('base64url'),
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken(grant),
      });
    }

    entry.status = 404;
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, HOST, () => {
      provider.issuer = `http://${HOST}:${server.address().port}`;
      provider.serverEnv = {
        ORTAK_OIDC_ISSUER: provider.issuer,
        ORTAK_OIDC_CLIENT_ID: clientId,
        ORTAK_OIDC_CLIENT_SECRET: clientSecret,
      };
      provider.close = () =>
        new Promise((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        });
      resolve(provider);
    });
  });
}
