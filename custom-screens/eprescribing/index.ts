// Public surface of custom-screens/eprescribing (app-spec §2.2 dosespot routes, §4, §6, §7, §8):
// the frame page and the header bell with its polled count.
export { EPrescribingPage } from './EPrescribingPage';
export { EPrescribingBell } from './EPrescribingBell';
