/**
 * About how many bytes a plain value holds in V8's heap, for caches bounded in bytes rather than
 * entries: an entry can be a week of figures or a 12-hour recording, and a count says nothing of
 * which. Numbers count 8 bytes, strings 2 a character, and each object, array and string a header;
 * typed arrays and buffers their bytes. Shared and repeated parts are counted each time they appear.
 */
export function approximateBytes(value: unknown): number {
	const pending: unknown[] = [value];
	let bytes = 0;
	while (pending.length > 0) {
		const item = pending.pop();
		if (item === null || item === undefined || typeof item === 'boolean') bytes += 8;
		else if (typeof item === 'number' || typeof item === 'bigint') bytes += 8;
		else if (typeof item === 'string') bytes += 16 + item.length * 2;
		else if (ArrayBuffer.isView(item)) bytes += 64 + item.byteLength;
		else if (item instanceof ArrayBuffer) bytes += 64 + item.byteLength;
		else if (item instanceof Date) bytes += 32;
		else if (Array.isArray(item)) {
			// A slot a value: numbers sit in their slots, anything else is counted where it points.
			bytes += 32 + item.length * 8;
			for (const element of item)
				if (typeof element === 'object' || typeof element === 'string') pending.push(element);
		} else if (item instanceof Map) {
			bytes += 64 + item.size * 16;
			for (const [key, entry] of item) pending.push(key, entry);
		} else if (typeof item === 'object') {
			const entries = Object.entries(item as Record<string, unknown>);
			bytes += 32 + entries.length * 16;
			for (const [, entry] of entries) pending.push(entry);
		} else bytes += 8;
	}
	return bytes;
}
