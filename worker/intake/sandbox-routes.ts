import { Type } from 'typebox';
import { SandboxControlError } from '../sandbox-helpers.js';
import { HttpError } from './http-error.js';
import { endStandingDecision } from './decision-routes.js';
import { DecisionParams, DecisionSchema, ERRORS, ErrorBody, NoQuery, ScreeningSchema } from './schemas.js';
import { actorOf, type IntakePlugin } from './intake-app.js';

/**
 * Sandbox test helpers (docs/api.md): admin only, and only while the worker runs on a sandbox
 * key (403 `sandbox_only` on live). They let a TMS produce a carrier change, a decision lapse
 * and a `change_conflict` against the sandbox, end to end.
 */

const CHANGES = ['authority_revoked', 'insurance_lapsed', 'safety_downgrade', 'reset'] as const;
const ChangeBody = Type.Object(
  {
    change: Type.Union(
      CHANGES.map((c) => Type.Literal(c)),
      {
        description:
          'authority_revoked or insurance_lapsed (a knockout: rejected), safety_downgrade (findings added: the decision and grade fall), or reset (the fixture again)',
      },
    ),
    check_now: Type.Optional(
      Type.Boolean({ description: 'true (default): re-screen the carrier now with refresh, so the change is detected and announced' }),
    ),
  },
  { additionalProperties: false },
);
const DotParams = Type.Object({ dot: Type.String({ pattern: '^\\d{1,8}$', description: 'a sandbox DOT number (1 to 8 digits)' }) });
const SandboxChangeSchema = Type.Object(
  {
    object: Type.Literal('sandbox_change'),
    dot_number: Type.String(),
    change: Type.String(),
    screening: Type.Union([ScreeningSchema, Type.Null()], { description: 'the re-screen started by check_now (null without it)' }),
  },
  { description: "A sandbox carrier's score change, and the re-screen that detects it." },
);

export const sandboxRoutes: IntakePlugin = async (r) => {
  const { screener } = r;
  const errors = ERRORS;
  const helpers = () => {
    if (!screener.sandbox)
      throw new HttpError(403, 'sandbox_only', 'the sandbox test helpers exist only while the worker runs on a sandbox key (svc_test_…)');
    return screener.sandbox;
  };

  r.post(
    '/sandbox/carriers/:dot/change',
    {
      config: { role: 'admin' },
      schema: {
        summary: "Sandbox only: change a sandbox carrier's score from now on, and detect it now",
        description: 'Needs the reference emulator as the /v1 sandbox (502 `sandbox_control_unavailable` elsewhere).',
        params: DotParams,
        querystring: NoQuery,
        body: ChangeBody,
        response: { 200: SandboxChangeSchema, 413: ErrorBody, 415: ErrorBody, 502: ErrorBody, ...errors },
      },
    },
    async (req) => {
      const h = helpers();
      try {
        const out = await h.changeCarrier(req.params.dot, req.body.change, req.body.check_now ?? true);
        return { object: 'sandbox_change' as const, dot_number: req.params.dot, change: out.change, screening: out.screening };
      } catch (e) {
        if (!(e instanceof SandboxControlError)) throw e;
        if (e.param === 'dot') throw new HttpError(404, 'resource_missing', e.message, 'dot');
        if (e.param) throw new HttpError(400, 'invalid_request', e.message, e.param);
        throw new HttpError(502, 'sandbox_control_unavailable', e.message);
      }
    },
  );

  r.post(
    '/sandbox/decisions/:id/lapse',
    {
      config: { role: 'admin' },
      schema: {
        summary: 'Sandbox only: end a standing decision as lapsed now, as its TTL would (the next hold opens a review)',
        params: DecisionParams,
        querystring: NoQuery,
        response: { 200: DecisionSchema, 409: ErrorBody, ...errors },
      },
    },
    async (req) => {
      const h = helpers();
      // INTAKE_TOKEN has no name: the record says which credential did it.
      const actor = actorOf(req, req.caller?.name ?? 'INTAKE_TOKEN');
      return endStandingDecision(req.params.id, () => h.lapseDecision(req.params.id, actor));
    },
  );
};
