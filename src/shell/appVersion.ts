import packageJson from '../../package.json';

/** The version label of the user menu: the package version the app was built from. */
export const APP_VERSION = `v${packageJson.version}`;
