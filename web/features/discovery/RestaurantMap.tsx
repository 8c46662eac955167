import 'leaflet/dist/leaflet.css';
import { divIcon, latLngBounds, type LeafletEvent, type Marker as LeafletMarker } from 'leaflet';
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { Link } from 'react-router';
import { FIT_BOUNDS_DELAY_MS, FIT_BOUNDS_PADDING, MAP_CENTRE, MAP_MAX_ZOOM, MAP_ZOOM, MARKER_SIZE, type MapRestaurant } from './map-filters.ts';
import { TILE_ATTRIBUTION, TILE_URL } from './tiles.ts';

/**
 * The live map (Leaflet). Only the map route imports this file, so Leaflet stays in the
 * map's own chunk.
 */
export default function RestaurantMap({ restaurants, loading }: { restaurants: MapRestaurant[]; loading: boolean }) {
  const [tiles, setTiles] = useState<'pending' | 'loaded' | 'failed'>('pending');
  const tileEvents = useMemo(
    () => ({
      tileload: () => setTiles('loaded'),
      tileerror: () => setTiles((current) => (current === 'loaded' ? current : 'failed')),
    }),
    [],
  );

  return (
    <div className="restaurant-map">
      <MapContainer center={MAP_CENTRE} zoom={MAP_ZOOM} maxZoom={MAP_MAX_ZOOM} scrollWheelZoom zoomControl className="restaurant-map__canvas">
        <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={MAP_MAX_ZOOM} eventHandlers={tileEvents} />
        <LabelMap />
        {restaurants.map((restaurant) => (
          <RestaurantMarker key={restaurant.id} restaurant={restaurant} />
        ))}
        <FitToRestaurants restaurants={restaurants} />
      </MapContainer>
      {loading ? (
        <p className="restaurant-map__note" role="status">
          Loading restaurants…
        </p>
      ) : null}
      <p className="restaurant-map__offline" role="status">
        {tiles === 'failed' ? 'The street map can’t load right now (no connection to the tile server). Restaurants are still placed.' : ''}
      </p>
    </div>
  );
}

/** Names the map's focusable container for screen readers. */
function LabelMap() {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute('role', 'region');
    container.setAttribute('aria-label', 'Map of restaurants. Use the arrow keys to pan and plus or minus to zoom.');
  }, [map]);
  return null;
}

/** Fits the visible restaurants into view, 100 ms after they change (spec section 9). */
function FitToRestaurants({ restaurants }: { restaurants: MapRestaurant[] }) {
  const map = useMap();
  // The key stands for the list: refit only when the set of restaurants changes, not on every new array.
  const key = restaurants.map((restaurant) => restaurant.id).join(',');
  const hasRestaurants = restaurants.length > 0;
  // Reads the list as it is when the timer fires; not a reason to refit by itself.
  const fitBounds = useEffectEvent(() => {
    const bounds = latLngBounds(restaurants.map((restaurant) => [restaurant.lat, restaurant.lng] as [number, number]));
    // A single restaurant would otherwise zoom to street level 20.
    map.fitBounds(bounds, { padding: [FIT_BOUNDS_PADDING, FIT_BOUNDS_PADDING], maxZoom: 16 });
  });
  useEffect(() => {
    if (!hasRestaurants) return undefined;
    const timer = window.setTimeout(() => fitBounds(), FIT_BOUNDS_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [map, key, hasRestaurants]);
  return null;
}

/** A 40 px circle with the restaurant's emoji: red when hot, blue otherwise. */
function markerIcon(restaurant: MapRestaurant) {
  // An element, not an HTML string, so restaurant text is never parsed as markup.
  const element = document.createElement('span');
  element.className = `map-marker${restaurant.hot ? ' map-marker--hot' : ''}`;
  element.textContent = restaurant.emoji;
  element.dataset.slug = restaurant.slug;
  element.dataset.category = restaurant.category;
  element.dataset.hot = String(restaurant.hot);
  element.setAttribute('aria-hidden', 'true');
  return divIcon({
    html: element,
    className: 'map-marker-icon',
    iconSize: [MARKER_SIZE, MARKER_SIZE],
    iconAnchor: [MARKER_SIZE / 2, MARKER_SIZE / 2],
    popupAnchor: [0, -MARKER_SIZE / 2],
  });
}

/** Popup elements that already close on Escape. */
const popupsWithEscape = new WeakSet<HTMLElement>();

function RestaurantMarker({ restaurant }: { restaurant: MapRestaurant }) {
  const icon = useMemo(() => markerIcon(restaurant), [restaurant]);
  const title = [restaurant.name, restaurant.neighborhood, restaurant.hot ? 'hot spot' : ''].filter(Boolean).join(', ');
  const events = useMemo(
    () => ({
      popupopen: (event: LeafletEvent) => {
        const marker = event.target as LeafletMarker;
        const popup = marker.getPopup()?.getElement();
        // Escape inside the open popup closes it (once per popup element; Leaflet reuses it).
        if (popup && !popupsWithEscape.has(popup)) {
          popupsWithEscape.add(popup);
          popup.addEventListener('keydown', (keyEvent) => {
            if (keyEvent.key !== 'Escape') return;
            keyEvent.preventDefault();
            keyEvent.stopPropagation();
            marker.closePopup();
          });
        }
        // Opened from the keyboard (Enter on the focused marker): move focus into the popup.
        if (document.activeElement !== marker.getElement()) return;
        window.setTimeout(() => popup?.querySelector<HTMLElement>('.map-popup__reserve')?.focus(), 0);
      },
      popupclose: (event: LeafletEvent) => {
        const marker = event.target as LeafletMarker;
        const popup = marker.getPopup()?.getElement();
        // Closed with the focus inside the popup (Escape, or its close button): back to the marker,
        // not to <body> or the zoom buttons. A click elsewhere keeps its own focus.
        const focusWasInPopup = !!popup && popup.contains(document.activeElement);
        window.setTimeout(() => {
          const active = document.activeElement;
          if (focusWasInPopup || active === document.body || active === null) marker.getElement()?.focus();
        }, 0);
      },
    }),
    [],
  );
  return (
    <Marker position={[restaurant.lat, restaurant.lng]} icon={icon} title={title} keyboard riseOnHover eventHandlers={events}>
      <Popup autoPanPadding={[60, 24]}>
        <div className="map-popup" data-slug={restaurant.slug}>
          <p className="map-popup__name">
            <span className="emoji" aria-hidden="true">
              {restaurant.emoji}
            </span>{' '}
            {restaurant.name}
            {restaurant.hot ? <span className="map-popup__hot">Hot</span> : null}
          </p>
          {restaurant.neighborhood ? <p className="map-popup__hood">{restaurant.neighborhood}</p> : null}
          <Link to={`/r/${encodeURIComponent(restaurant.slug)}`} className="btn btn--primary btn--sm map-popup__reserve">
            Reserve Now
          </Link>
        </div>
      </Popup>
    </Marker>
  );
}
