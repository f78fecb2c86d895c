/** Signed callbacks to the TMS (DESIGN.md, "Screening" → Callbacks). */
export { signCallback, verifyCallback, SIGNATURE_HEADER, DELIVERY_HEADER, EVENT_HEADER, DEFAULT_TOLERANCE_SEC, type VerifyResult } from './signature.js';
export {
  createCallbacks,
  deliveryId,
  jobIdFor,
  callbackBody,
  CALLBACKS_QUEUE,
  type Callbacks,
  type CallbacksOptions,
  type CallbackKind,
  type CallbackJobData,
  type CallbackTransport,
} from './callbacks.js';
