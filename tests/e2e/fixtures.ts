/**
 * The `test` and `expect` every browser test imports. Page-wide checks that hold for every journey
 * live here, so a new spec gets them by importing from this file rather than from Playwright.
 */
export * from '@playwright/test';
