/**
 * The MapMyFitness v7.1 API writes datetimes as ISO 8601 with an explicit `+00:00` offset,
 * never `Z`; clients parse them that way.
 */
export function formatApiDateTime(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
