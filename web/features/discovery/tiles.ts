/**
 * The map's tiles. Dark CARTO tiles by default (the spec's dark map); a build can point
 * at another tile server with VITE_MAP_TILE_URL (and VITE_MAP_TILE_ATTRIBUTION for its
 * credit line). Markers never depend on tiles, so the map still works when the tile
 * server cannot be reached.
 */
export const DEFAULT_TILE_URL = 'https://{s}.basemaps.cartocdn.com/dark_all/{z}/{x}/{y}{r}.png';
export const DEFAULT_TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors &copy; <a href="https://carto.com/attributions">CARTO</a>';

const configured = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export const TILE_URL = configured(import.meta.env.VITE_MAP_TILE_URL) || DEFAULT_TILE_URL;
export const TILE_ATTRIBUTION = configured(import.meta.env.VITE_MAP_TILE_ATTRIBUTION) || DEFAULT_TILE_ATTRIBUTION;
