/** Signed callbacks to the TMS through the SQLite outbox (docs/callbacks.md). */
export {
  signCallback,
  verifyCallback,
  SIGNATURE_HEADER,
  DELIVERY_HEADER,
  EVENT_HEADER,
  DEFAULT_TOLERANCE_SEC,
  type VerifyResult,
} from './signature.js';
export {
  createCallbacks,
  deliveryId,
  callbackBody,
  oweScreeningCallback,
  type Callbacks,
  type CallbacksOptions,
  type CallbackKind,
} from './callbacks.js';
export {
  writeCallback,
  onCallbackWritten,
  callbackCounts,
  getCallback,
  getCallbackByDelivery,
  pageCallbacks,
  callbacksPage,
  retryCallback,
  cancelCallback,
  cancelCallbacksTo,
  destinationOf,
  CallbackNotFoundError,
  CallbackDeliveredError,
  CallbackSupersededError,
  CALLBACK_STATES,
  type CallbackState,
  type CallbackRecord,
  type NewCallback,
} from './outbox.js';
export {
  CallbackSender,
  retryDelayMs,
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_DEAD_AFTER_MS,
  type CallbackTransport,
  type SenderOptions,
} from './sender.js';
export { DestinationPolicy, normalizeAddress, isLoopbackHost } from './destination-policy.js';
export {
  failureOf,
  policyLookup,
  policyTransport,
  CallbackPolicyError,
  DELIVERY_FAILURES,
  type DeliveryFailure,
} from './callback-transport.js';
export { Destinations, DEFAULT_DESTINATION_LIMITS, type DestinationLimits } from './destinations.js';
