// A minimal SMTP sink for the browser end-to-end tests: listens on 127.0.0.1 (a free port),
// accepts every message the server sends and keeps it, decoded, for the test to read.
//
//   const sink = await startSmtpSink();
//   const server = await startServer({ env: { ORTAK_SMTP_URL: sink.url } });
//   const mail = await sink.waitFor('a@example.com', 'doğrulayın');
//   const link = linkIn(mail.text, `${server.baseURL}/verificationtoken?token=`);
//
// It speaks just enough SMTP for a plain (no TLS, no AUTH) client: a 220 greeting, EHLO with
// 8BITMIME, MAIL FROM / RCPT TO, DATA (un-dot-stuffed) and QUIT; anything else gets a 250.
import net from 'node:net';

const HOST = '127.0.0.1';

/** Splits a header block into [name (lower case), unfolded value] pairs. */
function parseHeaders(block) {
  const headers = [];
  for (const line of block.split('\n')) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      // A folded continuation line: keep the whitespace (RFC 5322 unfolding drops only CRLF).
      headers[headers.length - 1][1] += line;
    } else {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  }
  return headers;
}

const header = (headers, name) => headers.find(([n]) => n === name)?.[1] ?? '';

/** Splits a message (or part) at its first empty line into headers and body. */
function splitEntity(raw) {
  const at = raw.indexOf('\n\n');
  if (at < 0) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, at)), body: raw.slice(at + 2) };
}

/** A Content-Type parameter (e.g. boundary, charset), quoted or not. */
function param(value, name) {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return m ? (m[1] ?? m[2]) : '';
}

function decodeQuotedPrintable(text, { underscoreIsSpace = false } = {}) {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i];
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === '_' && underscoreIsSpace) {
      bytes.push(0x20);
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Decodes a body by its Content-Transfer-Encoding to a string (UTF-8). */
function decodeBody(body, transferEncoding) {
  switch (transferEncoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    default:
      return body;
  }
}

/**
 * Decodes RFC 2047 encoded words (`=?utf-8?b?...?=`, `=?utf-8?q?...?=`). Whitespace between
 * two adjacent encoded words is dropped, and the bytes of adjacent words are joined before
 * decoding, so a character split across two words comes out whole.
 */
export function decodeHeaderValue(value) {
  const word = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g;
  let out = '';
  let pending = []; // bytes of consecutive encoded words
  let last = 0;
  const flush = () => {
    if (pending.length > 0) out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  for (let m = word.exec(value); m; m = word.exec(value)) {
    const between = value.slice(last, m.index);
    if (!(pending.length > 0 && /^\s*$/.test(between))) {
      flush();
      out += between;
    }
    const [, , encoding, text] = m;
    pending.push(
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text, { underscoreIsSpace: true }),
    );
    last = word.lastIndex;
  }
  flush();
  return out + value.slice(last);
}

/** The decoded text/plain content of an entity (searching multiparts depth-first), or null. */
function textPlainOf(raw) {
  const { headers, body } = splitEntity(raw);
  const type = header(headers, 'content-type') || 'text/plain';
  if (/^multipart\//i.test(type)) {
    const boundary = param(type, 'boundary');
    if (!boundary) return null;
    const delimiter = `--${boundary}`;
    const parts = body.split('\n');
    let current = null;
    const found = [];
    for (const line of parts) {
      if (line === delimiter || line === `${delimiter}--` || line.trimEnd() === delimiter || line.trimEnd() === `${delimiter}--`) {
        if (current !== null) found.push(current.join('\n'));
        current = line.trimEnd() === `${delimiter}--` ? null : [];
        if (current === null) break;
      } else if (current !== null) {
        current.push(line);
      }
    }
    for (const part of found) {
      const text = textPlainOf(part);
      if (text !== null) return text;
    }
    return null;
  }
  if (/^text\/plain/i.test(type)) return decodeBody(body, header(headers, 'content-transfer-encoding'));
  return null;
}

/** Parses one received message (lines joined with \n, already un-dot-stuffed). */
export function parseMessage(to, raw) {
  const { headers } = splitEntity(raw);
  return {
    to,
    subject: decodeHeaderValue(header(headers, 'subject')),
    text: textPlainOf(raw) ?? '',
    raw,
  };
}

/**
 * Starts the sink on a free 127.0.0.1 port.
 * @returns {Promise<{
 *   url: string,
 *   messages: Array<{to: string, subject: string, text: string, raw: string}>,
 *   waitFor: (to: string, subjectIncludes: string, timeoutMs?: number) => Promise<{to: string, subject: string, text: string}>,
 *   count: (to: string) => number,
 *   close: () => Promise<void>,
 * }>}
 */
export function startSmtpSink() {
  /** Every message received, in order. A message has one entry per recipient. */
  const messages = [];
  /** Messages already handed out by waitFor (each is returned once). */
  const taken = new Set();
  const waiters = new Set();
  const sockets = new Set();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('latin1'); // bytes in, bytes out: the message is decoded as UTF-8 later
    const reply = (text) => {
      if (!socket.destroyed) socket.write(text);
    };
    reply('220 sink ESMTP\r\n');

    let buffer = '';
    let recipients = [];
    let data = null; // lines of the message while in DATA

    const onLine = (line) => {
      if (data !== null) {
        if (line === '.') {
          const raw = Buffer.from(data.join('\n'), 'latin1').toString('utf8');
          for (const to of recipients) {
            messages.push(parseMessage(to, raw));
          }
          data = null;
          recipients = [];
          reply('250 queued\r\n');
          for (const waiter of [...waiters]) waiter();
        } else {
          data.push(line.startsWith('..') ? line.slice(1) : line);
        }
        return;
      }
      const upper = line.toUpperCase();
      if (upper.startsWith('EHLO')) {
        reply('250-sink\r\n250 8BITMIME\r\n');
      } else if (upper.startsWith('MAIL FROM:')) {
        recipients = [];
        reply('250 ok\r\n');
      } else if (upper.startsWith('RCPT TO:')) {
        const m = /<([^>]*)>/.exec(line);
        recipients.push((m ? m[1] : line.slice(8)).trim());
        reply('250 ok\r\n');
      } else if (upper === 'DATA') {
        data = [];
        reply('354 end data with <CR><LF>.<CR><LF>\r\n');
      } else if (upper === 'QUIT') {
        reply('221 bye\r\n');
        socket.end();
      } else {
        reply('250 ok\r\n');
      }
    };

    socket.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        onLine(line);
      }
    });
  });

  const same = (a, b) => a.toLowerCase() === b.toLowerCase();

  /**
   * Resolves with the oldest message to `to` whose subject contains `subjectIncludes` and that
   * no earlier waitFor returned; rejects after timeoutMs, listing what did arrive.
   */
  function waitFor(to, subjectIncludes, timeoutMs = 10_000) {
    return new Promise((resolve, reject) => {
      let timer;
      const check = () => {
        const mail = messages.find((m) => !taken.has(m) && same(m.to, to) && m.subject.includes(subjectIncludes));
        if (!mail) return false;
        taken.add(mail);
        waiters.delete(check);
        clearTimeout(timer);
        resolve(mail);
        return true;
      };
      if (check()) return;
      waiters.add(check);
      timer = setTimeout(() => {
        waiters.delete(check);
        const seen = messages.map((m) => `  to ${m.to}: ${m.subject}`).join('\n') || '  (none)';
        reject(new Error(`no mail to ${to} with a subject containing "${subjectIncludes}" within ${timeoutMs} ms; received:\n${seen}`));
      }, timeoutMs);
    });
  }

  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      resolve({
        url: `smtp://${HOST}:${port}`,
        messages,
        waitFor,
        count: (to) => messages.filter((m) => same(m.to, to)).length,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The first whitespace-delimited token of `text` that starts with `prefix`, or null. */
export function linkIn(text, prefix) {
  return text.split(/\s+/).find((token) => token.startsWith(prefix)) ?? null;
}
