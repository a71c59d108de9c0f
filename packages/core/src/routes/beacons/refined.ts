/** POST {base}/search-events/refined: the user refined a search with a new query. */
import { beaconRoute } from './search-event.js';

export const refinedRoute = beaconRoute('refined');
