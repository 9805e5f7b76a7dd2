// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
	DEFAULT_PLANNER_VIEW,
	leafletFitView,
	leafletTilesAt,
	type PreviewSetup,
	plannerPreviewScript,
	plannerViewFrom,
} from '../../../src/lib/routes/planner-preview';

const setup: PreviewSetup = {
	layers: [
		{ type: 'OSM', url: '/tiles/{z}/{x}/{y}{r}.png', maxZoom: 18 },
		{ type: 'terrain', url: 'https://{s}.tiles.example/{z}/{x}/{y}.png', maxZoom: 12 },
	],
	remembered: true,
	viewKey: 'view',
	typeKey: 'type',
	fallback: DEFAULT_PLANNER_VIEW,
};

/** Runs the page's inline script as the browser would: on its own, right after its placeholder. */
function runInPage(script: string, size = { width: 375, height: 487 }): HTMLImageElement[] {
	const box = document.createElement('div');
	Object.defineProperty(box, 'clientWidth', { value: size.width });
	Object.defineProperty(box, 'clientHeight', { value: size.height });
	const element = document.createElement('script');
	document.body.append(box, element);
	Object.defineProperty(document, 'currentScript', { value: element, configurable: true });
	new Function(script)();
	return [...box.querySelectorAll('img')];
}

afterEach(() => {
	window.localStorage.clear();
	document.body.replaceChildren();
});

describe('the planner view kept in the browser', () => {
	it('is read back when whole and in range, and ignored otherwise', () => {
		expect(plannerViewFrom('{"lat":42.5,"lng":1.52,"zoom":14}')).toEqual({ lat: 42.5, lng: 1.52, zoom: 14 });
		expect(plannerViewFrom(null)).toBeNull();
		expect(plannerViewFrom('{"lat":42.5,')).toBeNull();
		expect(plannerViewFrom('{"lat":95,"lng":1,"zoom":14}')).toBeNull();
		expect(plannerViewFrom('{"lat":42.5,"lng":"1","zoom":14}')).toBeNull();
		expect(plannerViewFrom('{"lat":42.5,"lng":1,"zoom":40}')).toBeNull();
	});
});

describe("Leaflet's first tiles", () => {
	it('cover the whole map, each tile touching it, the centre where the view says', () => {
		const size = { width: 375, height: 487 };
		const tiles = leafletTilesAt(DEFAULT_PLANNER_VIEW, size);
		for (const tile of tiles) {
			expect(tile.left).toBeGreaterThan(-256);
			expect(tile.left).toBeLessThan(size.width);
			expect(tile.top).toBeGreaterThan(-256);
			expect(tile.top).toBeLessThan(size.height);
		}
		// Every pixel of the map lies on one tile.
		for (const [x, y] of [
			[0, 0],
			[size.width - 1, size.height - 1],
			[size.width / 2, size.height / 2],
		]) {
			const under = tiles.filter(
				(tile) => tile.left <= x && x < tile.left + 256 && tile.top <= y && y < tile.top + 256,
			);
			expect(under).toHaveLength(1);
		}
		// The view's centre (Harrisburg, 40.272 N 76.85 W) is on tile 15/9388/12372, under the map's middle.
		const middle = tiles.find(
			(tile) =>
				tile.left <= size.width / 2 &&
				size.width / 2 < tile.left + 256 &&
				tile.top <= size.height / 2 &&
				size.height / 2 < tile.top + 256,
		);
		expect(middle).toMatchObject({ z: 15, x: 9388, y: 12372 });
	});

	it('wrap their addresses across the antimeridian', () => {
		const tiles = leafletTilesAt({ lat: 0, lng: 179.99, zoom: 2 }, { width: 300, height: 300 });
		expect(tiles.map((tile) => tile.x).sort()).toEqual([0, 0, 3, 3]);
	});
});

describe("the planner page's inline first paint", () => {
	it('draws the default view when nothing is kept', () => {
		Object.defineProperty(window, 'devicePixelRatio', { value: 2, configurable: true });
		const images = runInPage(plannerPreviewScript(setup));
		const expected = leafletTilesAt(DEFAULT_PLANNER_VIEW, { width: 375, height: 487 });
		expect(images.map((image) => image.getAttribute('src'))).toEqual(
			expected.map((tile) => `/tiles/15/${tile.x}/${tile.y}@2x.png`),
		);
		expect(images.map((image) => [image.style.left, image.style.top])).toEqual(
			expected.map((tile) => [`${tile.left}px`, `${tile.top}px`]),
		);
	});

	it('opens on the kept view and map type, with Leaflet’s subdomains', () => {
		Object.defineProperty(window, 'devicePixelRatio', { value: 1, configurable: true });
		window.localStorage.setItem('view', JSON.stringify({ lat: 42.5078, lng: 1.5211, zoom: 12 }));
		window.localStorage.setItem('type', 'terrain');
		const images = runInPage(plannerPreviewScript(setup));
		const expected = leafletTilesAt({ lat: 42.5078, lng: 1.5211, zoom: 12 }, { width: 375, height: 487 });
		expect(images.map((image) => image.getAttribute('src'))).toEqual(
			expected.map(
				(tile) => `https://${'abc'[(tile.x + tile.y) % 3]}.tiles.example/12/${tile.x}/${tile.y}.png`,
			),
		);
	});

	it('keeps to the default view when the visitor does not let preferences be kept', () => {
		window.localStorage.setItem('view', JSON.stringify({ lat: 42.5078, lng: 1.5211, zoom: 12 }));
		const images = runInPage(plannerPreviewScript({ ...setup, remembered: false }));
		expect(images[0].getAttribute('src')).toMatch(/^\/tiles\/15\//);
	});

	it('draws nothing past the layer’s last zoom, where Leaflet would scale other tiles', () => {
		window.localStorage.setItem('view', JSON.stringify({ lat: 42.5078, lng: 1.5211, zoom: 14 }));
		window.localStorage.setItem('type', 'terrain');
		expect(runInPage(plannerPreviewScript(setup))).toHaveLength(0);
	});

	it('cannot be ended early by a value in its setup', () => {
		const script = plannerPreviewScript({
			...setup,
			layers: [{ type: 'OSM', url: '/tiles/</script><script>alert(1)</script>{z}/{x}/{y}.png', maxZoom: 18 }],
		});
		expect(script).not.toMatch(/<\/script/i);
		expect(runInPage(script)[0].getAttribute('src')).toContain('</script><script>alert(1)</script>15/');
	});
});

describe("Leaflet's framing of an opened route", () => {
	const frame = {
		south: 40.2585,
		west: -76.8902,
		north: 40.2731,
		east: -76.8843,
		padding: 32,
		maxZoom: 16,
	};

	it('is the view Leaflet fitBounds gives the same map', async () => {
		const L = (await import('leaflet')).default;
		for (const size of [
			{ width: 375, height: 487 },
			{ width: 820, height: 480 },
			{ width: 300, height: 900 },
			// Sizes where the padding decides between two zooms, across and down.
			{ width: 320, height: 2000 },
			{ width: 900, height: 500 },
		]) {
			const container = document.createElement('div');
			document.body.append(container);
			const map = L.map(container).setView([40.272, -76.85], 15);
			// happy-dom lays nothing out: the map is told its size.
			map.getSize = () => L.point(size.width, size.height);
			map.fitBounds(
				[
					[frame.south, frame.west],
					[frame.north, frame.east],
				],
				{ padding: [32, 32], maxZoom: 16 },
			);
			const view = leafletFitView(frame, size);
			expect(view.zoom).toBe(map.getZoom());
			expect(view.lat).toBeCloseTo(map.getCenter().lat, 9);
			expect(view.lng).toBeCloseTo(map.getCenter().lng, 9);
			map.remove();
		}
	});

	it('comes no closer than its last zoom, even for a single point', () => {
		expect(
			leafletFitView({ ...frame, north: frame.south, east: frame.west }, { width: 375, height: 487 }),
		).toEqual({ lat: expect.closeTo(frame.south, 9), lng: expect.closeTo(frame.west, 9), zoom: 16 });
	});

	it('is what the inline script opens on, whatever view is kept', () => {
		window.localStorage.setItem('view', JSON.stringify({ lat: 42.5078, lng: 1.5211, zoom: 12 }));
		const images = runInPage(plannerPreviewScript({ ...setup, frame }));
		const view = leafletFitView(frame, { width: 375, height: 487 });
		expect(images.map((image) => image.getAttribute('src'))).toEqual(
			leafletTilesAt(view, { width: 375, height: 487 }).map(
				(tile) => `/tiles/${view.zoom}/${tile.x}/${tile.y}${window.devicePixelRatio > 1 ? '@2x' : ''}.png`,
			),
		);
	});
});
