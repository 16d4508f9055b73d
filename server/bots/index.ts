export { asCommonJs, loadBotCode, maxBotCodeBytes } from './botCode';
export { botPolicyEntries, type BotExecutor } from './botPermission';
export { botFailure, botRoutes, type BotRoutesOptions } from './botRoutes';
export {
  botRunAuthor,
  BotRunner,
  botSecrets,
  botTimeoutMs,
  defaultBotConcurrency,
  defaultBotMemoryMb,
  type BotInvocation,
  type BotRunnerOptions,
  type BotRunResult,
} from './botRunner';
export { runInSandbox, type BotFailure, type BotValue, type SandboxOutcome } from './botSandbox';
export { botIdOfSubscription, BotSubscriptions, subscriptionRefreshMs, triggersBots } from './botSubscriptions';
export { RunLimiter } from './runLimiter';
