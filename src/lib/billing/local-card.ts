/**
 * The built-in test processor's card script: it runs in the browser and turns what the member typed
 * into a token, so the card number never leaves the page. No real card is ever charged. The well-known
 * test numbers choose the outcome, as they do at real processors.
 */
export const LOCAL_TEST_CARDS = {
	'4242424242424242': 'ok',
	'5555555555554444': 'ok',
	'4000000000000002': 'declined',
	'4000000000009995': 'insufficient_funds',
	'4000000000000069': 'expired_card',
	'4000002500003155': 'authenticate',
	'4000000000000341': 'renewal_fails',
	'4000000000000119': 'network_error',
} as const;
export type LocalCardBehaviour = (typeof LOCAL_TEST_CARDS)[keyof typeof LOCAL_TEST_CARDS];
export const LOCAL_CARD_BEHAVIOURS: readonly LocalCardBehaviour[] = [
	'ok',
	'declined',
	'insufficient_funds',
	'expired_card',
	'authenticate',
	'renewal_fails',
	'network_error',
];

export type CardInput = { number: string; expiry: string; cvc: string };
export type CardToken = { token: string; brand: string; last4: string };

function luhnValid(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

function brandOf(digits: string): string {
	if (digits.startsWith('4')) return 'visa';
	if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
	if (/^3[47]/.test(digits)) return 'amex';
	return 'card';
}

/** Checks the card as a processor's form does and makes its token; the error says what to fix. */
export function tokenizeLocalCard(input: CardInput, now = new Date()): CardToken | { error: string } {
	const digits = input.number.replace(/[\s-]/g, '');
	if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return { error: 'Your card number is not valid.' };
	const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim());
	const month = expiry ? Number(expiry[1]) : 0;
	const year = expiry ? Number(expiry[2].length === 2 ? `20${expiry[2]}` : expiry[2]) : 0;
	if (!expiry || month < 1 || month > 12) return { error: 'Your card’s expiry date is not valid (MM/YY).' };
	if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1)
		return { error: 'Your card has expired.' };
	if (!/^\d{3,4}$/.test(input.cvc.trim())) return { error: 'Your card’s security code is not valid.' };
	const behaviour: LocalCardBehaviour = LOCAL_TEST_CARDS[digits as keyof typeof LOCAL_TEST_CARDS] ?? 'ok';
	const brand = brandOf(digits);
	const last4 = digits.slice(-4);
	const nonce = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
		byte.toString(16).padStart(2, '0'),
	).join('');
	return { token: `tok_local_${behaviour}_${brand}_${last4}_${nonce}`, brand, last4 };
}

/** What a local token says about its card: its behaviour, brand and last four digits. */
export function readLocalToken(
	token: string,
): { behaviour: LocalCardBehaviour; brand: string; last4: string } | null {
	const match = /^(?:tok|pm)_local_([a-z_]+)_([a-z]+)_(\d{4})_[0-9a-f]{16}$/.exec(token);
	if (!match || !LOCAL_CARD_BEHAVIOURS.includes(match[1] as LocalCardBehaviour)) return null;
	return { behaviour: match[1] as LocalCardBehaviour, brand: match[2], last4: match[3] };
}
