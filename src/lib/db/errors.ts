/** Whether a failed write broke a unique index (PostgreSQL's 23505, however the driver wraps it). */
export function isUniqueViolation(error: unknown): boolean {
	const outer = error as { code?: string; cause?: { code?: string } };
	return outer.code === '23505' || outer.cause?.code === '23505';
}
