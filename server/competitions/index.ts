/**
 * The competitions area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas
 * and the station's root use of it. Other areas import it from here, never from its modules.
 */
export { type CompetitionLimits } from './competition-rules';
export {
  competitionAccountIds,
  lockCompetitionAccount,
  tradingContext,
  type CompetitionTradingContext,
} from './entry';
export { rankCompetitions } from './ranking';
export { competitionPlugin, competitionReadsPlugin } from './routes/competitions';
