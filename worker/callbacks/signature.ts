/** The signature scheme has one home, shared with the TMS client: shared/callback-signature.ts. */
export {
  DEFAULT_TOLERANCE_SEC,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signCallback,
  verifyCallback,
  type VerifyResult,
} from '../../shared/callback-signature.js';
