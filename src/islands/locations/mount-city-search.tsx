import { hydrateRoot } from 'react-dom/client';
import CitySearch, { type CitySearchProps } from './CitySearch';

/**
 * Takes over a city search that was pre-rendered as plain HTML. Loaded only on the first
 * interaction with the field, so pages that are only read never download React.
 *
 * It hydrates with exactly the props the server rendered, so React keeps every node: the field a
 * person is typing into stays the same element, with its focus and caret, and the widget reads
 * what was typed from it once it has taken over.
 */
export function mountCitySearch(container: HTMLElement, props: CitySearchProps): void {
	hydrateRoot(container, <CitySearch {...props} />);
}
