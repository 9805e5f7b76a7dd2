import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export type DeliveredMail = {
	to: string[];
	subject: string;
	text: string;
	/** Every header, lower-case name to (last) value. */
	headers: Record<string, string>;
	/** Whether the message had an HTML part (ours are text only). */
	html: boolean;
};

/**
 * A real SMTP server for the browser tests: the product under test sends to it through SMTP_URL,
 * and each delivered message lands as a JSON file that any Playwright worker can read.
 */
export function startSmtpSink(port: number, folder: string): SMTPServer {
	mkdirSync(folder, { recursive: true });
	let count = 0;
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		onData(stream, session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', async () => {
				const parsed = await PostalMime.parse(Buffer.concat(chunks));
				const mail: DeliveredMail = {
					to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
					subject: parsed.subject ?? '',
					text: parsed.text ?? '',
					headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
					html: Boolean(parsed.html),
				};
				count += 1;
				writeFileSync(path.join(folder, `${Date.now()}-${count}.json`), JSON.stringify(mail));
				callback();
			});
		},
	});
	server.listen(port, '127.0.0.1');
	// The sink lives as long as the test run, and must not keep it alive after.
	server.server.unref();
	return server;
}

/** Every message delivered so far to one address, oldest first. */
export function readDeliveredMail(folder: string, to: string): DeliveredMail[] {
	return readdirSync(folder)
		.sort()
		.map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as DeliveredMail)
		.filter((mail) => mail.to.includes(to));
}
