import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { setProfilePhoto } from '../../account/server/service';
import type { AppDeps } from '../../core/server/deps';
import { hashPassword } from './passwords';
import { promotionalPreferences, users } from './tables';

export const DEMO_MEMBER = {
	email: 'demo@mapstride.localhost',
	password: 'Demo-Runner-Trail-2026',
	username: 'demo',
} as const;

/**
 * The demo member the start-up message and README name: a public profile with a photo, a
 * confirmed email and metric settings. Safe to call on every start; it changes nothing once the
 * member exists. Never called in production (the caller checks).
 */
export async function seedDemoMember(deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>) {
	const [existing] = await deps.db
		.select({ id: users.id })
		.from(users)
		.where(sql`lower(${users.email}) = ${DEMO_MEMBER.email}`);
	if (existing) return { id: existing.id, ...DEMO_MEMBER, created: false };
	const now = deps.clock();
	const [row] = await deps.db
		.insert(users)
		.values({
			username: DEMO_MEMBER.username,
			email: DEMO_MEMBER.email,
			emailVerifiedAt: now,
			passwordHash: await hashPassword(DEMO_MEMBER.password),
			firstName: 'Dana',
			lastName: 'Demo',
			displayName: 'Dana Demo',
			gender: 'F',
			birthdate: '1988-05-14',
			locality: 'Andorra la Vella',
			region: 'Andorra la Vella',
			country: 'AD',
			timeZone: 'Europe/Andorra',
			heightM: 1.68,
			weightKg: 61,
			goalStatement: 'Run every valley in Andorra this year.',
			introduction: 'Trail runner and weekend cyclist. This is the demo account.',
			profilePrivacy: 3,
			createdAt: now,
			updatedAt: now,
		})
		.returning();
	await deps.db.insert(promotionalPreferences).values({ userId: row.id, choice: false, region: 'EU2' });
	const avatar = await sharp(
		Buffer.from(
			'<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#0b5cad"/><circle cx="128" cy="100" r="48" fill="#ffd166"/><path d="M40 256c8-60 44-88 88-88s80 28 88 88z" fill="#ffd166"/></svg>',
		),
	)
		.png()
		.toBuffer();
	const viewer = { id: row.id, username: row.username, displayName: row.displayName, isPremium: false };
	await setProfilePhoto(deps, viewer, row.id, avatar);
	deps.logger.info('demo member created');
	return { id: row.id, ...DEMO_MEMBER, created: true };
}

/** For tests and tools: whether the demo member's row exists. */
export async function hasDemoMember(deps: Pick<AppDeps, 'db'>): Promise<boolean> {
	const rows = await deps.db
		.select({ id: users.id })
		.from(users)
		.where(eq(users.username, DEMO_MEMBER.username));
	return rows.length > 0;
}
