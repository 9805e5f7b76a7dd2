/** True when `promise` settled (either way) within `ms`; false when it was still pending then. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<false>((resolve) => {
		timer = setTimeout(() => resolve(false), ms);
	});
	const settled = promise.then(
		() => true as const,
		() => true as const,
	);
	try {
		return await Promise.race([settled, late]);
	} finally {
		clearTimeout(timer);
	}
}
