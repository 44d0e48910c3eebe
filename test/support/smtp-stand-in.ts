import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the stand-in accepted, with its parts decoded. */
export interface ReceivedMail {
  /** The envelope's sender and recipients. */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The user name the client authenticated as, if it did. */
  authenticatedAs: string | undefined;
  headers: Record<string, string>;
  /** The decoded text/plain and text/html parts ('' when absent). */
  text: string;
  html: string;
}

export interface SmtpStandIn {
  readonly port: number;
  /** Every message accepted so far, oldest first. */
  readonly messages: ReceivedMail[];
  /** The messages sent to this address. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** Splits a MIME entity into lower-cased headers (unfolded) and its body. */
function splitEntity(entity: string): { headers: Record<string, string>; body: string } {
  const end = entity.indexOf('\r\n\r\n');
  const head = end === -1 ? entity : entity.slice(0, end);
  const body = end === -1 ? '' : entity.slice(end + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        );
      return Buffer.from(bytes, 'latin1').toString('utf8');
    }
    default:
      return body;
  }
}

/** The decoded text/plain and text/html parts of a message, looking into multipart bodies. */
function partsOf(entity: string): { text: string; html: string } {
  const { headers, body } = splitEntity(entity);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const found = { text: '', html: '' };
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = partsOf(section.replace(/^\r\n/, ''));
      found.text ||= part.text;
      found.html ||= part.html;
    }
    return found;
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding']);
  return type.toLowerCase().startsWith('text/html')
    ? { text: '', html: decoded }
    : { text: decoded, html: '' };
}

/**
 * A real SMTP server on 127.0.0.1 and a free port that accepts every message (with or without
 * authentication, over plain text) and keeps it.
 */
export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers } = splitEntity(raw);
        messages.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
          authenticatedAs: session.user as string | undefined,
          headers,
          ...partsOf(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    to: (address) => messages.filter((mail) => mail.envelopeTo.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
