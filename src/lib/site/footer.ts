/** The shell's footer link columns. Hrefs that depend on config are passed in. */
export type FooterLink = { label: string; href: string; membersOnly?: boolean; visitorsOnly?: boolean };
export type FooterColumn = { id: string; label: string; links: FooterLink[] };

export function footerColumns(supportHref: string): FooterColumn[] {
	return [
		{
			id: 'help',
			label: 'Help',
			links: [
				{ label: 'Account Settings', href: '/account/settings/', membersOnly: true },
				{ label: 'Log In', href: '/auth/login/', visitorsOnly: true },
				{ label: 'Register', href: '/auth/signup/', visitorsOnly: true },
				{ label: 'Privacy Center', href: '/privacy_center/manage/' },
				{ label: 'Support', href: supportHref },
				{ label: 'Developer / API', href: '/developers' },
			],
		},
		{
			id: 'about',
			label: 'About',
			links: [
				{ label: 'Find Your City', href: '/us/' },
				{ label: 'Go MVP', href: '/mvp/' },
				{ label: 'Contact Us', href: supportHref },
				{ label: 'Join Our Team', href: `${supportHref}?topic=careers` },
			],
		},
		{
			id: 'connect',
			label: 'Connect',
			links: [{ label: 'Community Feed', href: '/activity_feed/' }],
		},
	];
}

/** The contact form: the footer, the profile menu and the error screen link here. */
export const SUPPORT_PATH = '/support/';

/** Where the legal pages live; the footer, signup and the pages themselves link here. */
export const LEGAL_PATHS = {
	privacy: '/legal/privacy/',
	terms: '/legal/terms/',
	cookies: '/legal/cookies/',
	privacyNotice: '/legal/privacy-notice/',
} as const;

export const LEGAL_LINKS: readonly FooterLink[] = [
	{ label: 'Privacy Policy', href: LEGAL_PATHS.privacy },
	{ label: 'Terms of Use', href: LEGAL_PATHS.terms },
	{ label: 'Cookie Policy', href: LEGAL_PATHS.cookies },
];

export const PRIVACY_NOTICE_LINK: FooterLink = { label: 'Privacy Notice', href: LEGAL_PATHS.privacyNotice };
