/** Service version (package.json) and API version (SPEC §9). */
export const APP_VERSION = '1.0.0';
export const API_VERSION = '1.0.0';
