/** POST {base}/search-events/observed: the user saw these hits of a search. */
import { beaconRoute } from './search-event.js';

export const observedRoute = beaconRoute('observed');
