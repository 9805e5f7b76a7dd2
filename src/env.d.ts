/// <reference types="astro/client" />

declare namespace App {
	interface Locals {
		/** The signed-in member on on-demand pages; null for visitors. Set by src/middleware.ts. */
		viewer: import('./lib/auth/contract').Viewer | null;
	}
}
