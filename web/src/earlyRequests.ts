// Imported first by main.tsx. Modules run in import order, so this runs
// before React and the app are evaluated: requests a page can make without
// them go out now (features/fleet/earlyFleetRequests.ts).
import { startEarlyFleetRequests } from './features/fleet/earlyFleetRequests';

startEarlyFleetRequests(window.location, Date.now());
