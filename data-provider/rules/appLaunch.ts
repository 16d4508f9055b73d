import { appAddressProblem } from './redirectUri';

/**
 * Where a SMART app starts an EHR launch (`ClientApplication.launchUri`): the chart sends the
 * clinician's browser there, so it follows the redirect URI's rule — https, or http on loopback.
 */
export function launchUriProblem(address: string): string | undefined {
  return appAddressProblem(address, 'Launch URI');
}

/**
 * The address that starts an EHR launch (SMART App Launch 2.0 §"EHR launch"): the app's launch URI
 * with `iss` (the FHIR base the app discovers the server from) and `launch` (the SmartAppLaunch id
 * it hands back with its authorization request). Parameters the launch URI already carries stay
 * (an app may put its client id there); `iss` and `launch` replace any of the same name.
 */
export function appLaunchUrl(launchUri: string, iss: string, launchId: string): string {
  const problem = launchUriProblem(launchUri);
  if (problem) throw new Error(problem);
  const url = new URL(launchUri);
  url.searchParams.set('iss', iss);
  url.searchParams.set('launch', launchId);
  return url.toString();
}
