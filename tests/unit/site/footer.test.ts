import { describe, expect, it } from 'vitest';
import { footerColumns, LEGAL_LINKS } from '~/lib/site/footer';

describe('footer', () => {
	const columns = footerColumns('/support/');
	const labels = (id: string) => columns.find((column) => column.id === id)?.links.map((link) => link.label);

	it('has the Help, About and Connect columns', () => {
		expect(columns.map((column) => column.label)).toEqual(['Help', 'About', 'Connect']);
		expect(labels('help')).toEqual([
			'Account Settings',
			'Log In',
			'Register',
			'Privacy Center',
			'Support',
			'Developer / API',
		]);
		expect(labels('about')).toEqual(['Find Your City', 'Go MVP', 'Contact Us', 'Join Our Team']);
	});

	it('shows Account Settings to members and Log In / Register to visitors', () => {
		const help = columns[0].links;
		expect(help.filter((link) => link.membersOnly).map((link) => link.label)).toEqual(['Account Settings']);
		expect(help.filter((link) => link.visitorsOnly).map((link) => link.label)).toEqual([
			'Log In',
			'Register',
		]);
	});

	it('points About at the city finder and the MVP landing page', () => {
		const about = columns[1].links;
		expect(about.find((link) => link.label === 'Find Your City')?.href).toBe('/us/');
		expect(about.find((link) => link.label === 'Go MVP')?.href).toBe('/mvp/');
		expect(about.find((link) => link.label === 'Contact Us')?.href).toBe('/support/');
		expect(about.find((link) => link.label === 'Join Our Team')?.href).toBe('/support/?topic=careers');
	});

	it('lists the legal links', () => {
		expect(LEGAL_LINKS.map((link) => link.label)).toEqual([
			'Privacy Policy',
			'Terms of Use',
			'Cookie Policy',
		]);
	});
});
