// SMART EHR launch from the chart: the "Apps" menu and the rules behind it.
export { AppLaunchMenu, openLaunchTab, type LaunchTab } from './AppLaunchMenu';
export { chartLaunchContext, launchableApps, type LaunchableApp } from './launchableApps';
