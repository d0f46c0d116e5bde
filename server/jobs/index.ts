/**
 * The jobs area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { type Scheduler } from './scheduler';
export { STEP_EVERY_MS, createStationJobs } from './station-jobs';
