/** Indexed binary min-heap over node ids 0..n-1 with decrease-key; reset is O(items touched). */
export class IndexedHeap {
	private readonly keys: Float64Array;
	private readonly items: Int32Array;
	private readonly positions: Int32Array;
	size = 0;

	constructor(capacity: number) {
		this.keys = new Float64Array(capacity);
		this.items = new Int32Array(capacity);
		this.positions = new Int32Array(capacity).fill(-1);
	}

	clear(): void {
		for (let i = 0; i < this.size; i++) this.positions[this.items[i]] = -1;
		this.size = 0;
	}

	has(item: number): boolean {
		return this.positions[item] >= 0;
	}

	peekKey(): number {
		return this.size > 0 ? this.keys[0] : Number.POSITIVE_INFINITY;
	}

	/** Inserts the item or lowers its key. */
	push(item: number, key: number): void {
		let position = this.positions[item];
		if (position < 0) {
			position = this.size++;
		} else if (this.keys[position] <= key) return;
		this.bubbleUp(position, item, key);
	}

	pop(): number {
		const top = this.items[0];
		this.positions[top] = -1;
		this.size--;
		if (this.size > 0) this.sinkDown(this.items[this.size], this.keys[this.size]);
		return top;
	}

	private bubbleUp(start: number, item: number, key: number): void {
		let position = start;
		const keys = this.keys;
		const items = this.items;
		while (position > 0) {
			const parent = (position - 1) >> 1;
			if (keys[parent] <= key) break;
			keys[position] = keys[parent];
			items[position] = items[parent];
			this.positions[items[position]] = position;
			position = parent;
		}
		keys[position] = key;
		items[position] = item;
		this.positions[item] = position;
	}

	private sinkDown(item: number, key: number): void {
		const keys = this.keys;
		const items = this.items;
		const size = this.size;
		let position = 0;
		for (;;) {
			let child = 2 * position + 1;
			if (child >= size) break;
			if (child + 1 < size && keys[child + 1] < keys[child]) child++;
			if (keys[child] >= key) break;
			keys[position] = keys[child];
			items[position] = items[child];
			this.positions[items[position]] = position;
			position = child;
		}
		keys[position] = key;
		items[position] = item;
		this.positions[item] = position;
	}
}
