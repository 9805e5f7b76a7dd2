/** User-facing wording of the shell, shared by the Astro components and the bootup configuration. */
export const SHELL_MESSAGES = {
	refreshingToken: 'Refreshing auth token',
	globalError: 'This page encountered an error.  Please refresh and try again.',
	errorScreenTitle: 'Looks like something went wrong',
	errorScreenBody: 'Try again in a moment. If it keeps happening, our support team can help.',
	contactSupport: 'Contact support',
	notFoundTitle: 'We couldn’t find that page',
} as const;
