import { hydrateRoot } from 'react-dom/client';
import CitySearch, { type CitySearchProps } from './CitySearch';

/**
 * Takes over a city search that was pre-rendered as plain HTML. Loaded only on the first
 * interaction with the field, so pages that are only read never download React.
 */
export function mountCitySearch(container: HTMLElement, props: CitySearchProps): void {
	const input = container.querySelector('input');
	const typed = input?.value ?? '';
	hydrateRoot(container, <CitySearch {...props} initialTerm={typed} />, {
		// A mismatch (text typed before hydration) makes React render afresh; nothing to report.
		onRecoverableError: () => {},
	});
}
