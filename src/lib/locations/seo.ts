import type { CityInfo, CityRoute, CitySummary, StateSummary } from './contract';

/** Breadcrumb trail for a country, state or city page: [name, absolute URL] pairs. */
export type Crumb = { name: string; url: string };

/** JSON for a <script type="application/ld+json">: `<` escaped so no text can close the element. */
export function toJsonLd(data: unknown): string {
	return JSON.stringify(data)
		.replace(/</g, '\\u003c')
		.replace(/\u2028/g, '\\u2028')
		.replace(/\u2029/g, '\\u2029');
}

function breadcrumbList(crumbs: Crumb[]) {
	return {
		'@type': 'BreadcrumbList',
		itemListElement: crumbs.map((crumb, index) => ({
			'@type': 'ListItem',
			position: index + 1,
			name: crumb.name,
			item: crumb.url,
		})),
	};
}

export function countryPageJsonLd(input: {
	url: string;
	title: string;
	description: string;
	countryName: string;
	crumbs: Crumb[];
	states: StateSummary[];
	origin: string;
}) {
	return {
		'@context': 'https://schema.org',
		'@type': 'CollectionPage',
		name: input.title,
		url: input.url,
		description: input.description,
		about: { '@type': 'Country', name: input.countryName },
		breadcrumb: breadcrumbList(input.crumbs),
		mainEntity: {
			'@type': 'ItemList',
			name: `States of ${input.countryName}`,
			numberOfItems: input.states.length,
			itemListElement: input.states.map((state, index) => ({
				'@type': 'ListItem',
				position: index + 1,
				name: state.name,
				url: `${input.origin}${state.path}`,
			})),
		},
	};
}

export function statePageJsonLd(input: {
	url: string;
	title: string;
	description: string;
	stateName: string;
	countryName: string;
	crumbs: Crumb[];
	cities: CitySummary[];
	origin: string;
}) {
	return {
		'@context': 'https://schema.org',
		'@type': 'CollectionPage',
		name: input.title,
		url: input.url,
		description: input.description,
		about: {
			'@type': 'State',
			name: input.stateName,
			containedInPlace: { '@type': 'Country', name: input.countryName },
		},
		breadcrumb: breadcrumbList(input.crumbs),
		mainEntity: {
			'@type': 'ItemList',
			name: `Popular cities in ${input.stateName}`,
			itemListElement: input.cities.map((city, index) => ({
				'@type': 'ListItem',
				position: index + 1,
				name: city.name,
				url: `${input.origin}${city.path}`,
			})),
		},
	};
}

export function cityPageJsonLd(input: {
	url: string;
	title: string;
	description: string;
	city: CityInfo;
	crumbs: Crumb[];
	routes: CityRoute[];
	origin: string;
}) {
	const { city } = input;
	return {
		'@context': 'https://schema.org',
		'@type': 'WebPage',
		name: input.title,
		url: input.url,
		description: input.description,
		breadcrumb: breadcrumbList(input.crumbs),
		about: {
			'@type': 'City',
			name: city.name,
			geo: { '@type': 'GeoCoordinates', latitude: city.lat, longitude: city.lng },
			containedInPlace: {
				'@type': 'State',
				name: city.state_name,
				containedInPlace: { '@type': 'Country', name: city.country_name },
			},
			sameAs: `https://www.geonames.org/${city.geoname_id}`,
		},
		mainEntity: {
			'@type': 'ItemList',
			name: `Popular routes in ${city.name}`,
			numberOfItems: input.routes.length,
			itemListElement: input.routes.map((route, index) => ({
				'@type': 'ListItem',
				position: index + 1,
				name: route.name,
				url: `${input.origin}${route.path}`,
			})),
		},
	};
}
