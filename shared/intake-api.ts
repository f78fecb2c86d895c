/* Generated from the intake's /openapi.json by openapi-typescript (npm run gen:client). Do not edit. */

export interface paths {
    "/screenings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent screenings, newest first
         * @description Cursor-paged (limit, starting_after, ending_before), newest first; filter by tender_id, dot_number, mc_number, status, action, updated_since.
         */
        get: operations["listScreenings"];
        put?: never;
        /**
         * Screen a carrier
         * @description Exactly one of dot_number or mc_number. 200 with the finished screening when done within `wait` seconds, else 202 queued.
         */
        post: operations["createScreening"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/screenings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One screening
         * @description The screening as it is now; its version grows with every change.
         */
        get: operations["getScreening"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Review items (pending: oldest first)
         * @description Cursor-paged; pending reviews come oldest first, the rest newest first. Filter by state.
         */
        get: operations["listReviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One review item
         * @description One review with its newest facts (latest), every tender waiting on it and its version.
         */
        get: operations["getReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a held carrier (action becomes tender)
         * @description Send review_version, the version of the review you decided on: 409 review_stale (with the review as it is now) when the carrier's facts changed since. Who decided is the token's name; `by` counts only from an admin token (docs/decisions.md).
         */
        post: operations["approveReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a held carrier (action becomes block)
         * @description Send review_version, the version of the review you decided on: 409 review_stale (with the review as it is now) when the carrier's facts changed since. Who decided is the token's name; `by` counts only from an admin token (docs/decisions.md).
         */
        post: operations["rejectReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Queue, quota, rate limit, reviews, /v1 reachability
         * @description Queue counts, monthly quota and its gate, the /v1 rate limit, pending reviews, callbacks and whether /v1 answers.
         */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the bearer token is: its id, name and role
         * @description Who the bearer token is: its id, name and role (null id and name for INTAKE_TOKEN).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live lookups per UTC day this month
         * @description Live /v1 lookups per UTC day of this month, against the monthly quota.
         */
        get: operations["getDailyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop calling /v1 (intake keeps accepting)
         * @description Stops calling /v1: screenings are still accepted and queued, cache hits still answered. Answers the status.
         */
        post: operations["pauseQueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume calling /v1
         * @description Calls /v1 again for what waits in the queue. Answers the status.
         */
        post: operations["resumeQueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Server-Sent Events: screenings, reviews, carrier changes, quota and queue
         * @description Send Last-Event-ID (header) or last_event_id (query) to replay what was missed (events are kept SCREEN_EVENTS_RETENTION, 7 days by default). At most INTAKE_SSE_PER_TOKEN open streams per token (429 too_many_streams); a revoked token's streams end within seconds.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health (no auth)
         * @description No token. 200 ok, or degraded while /v1 is unreachable (the cache is served); 503 degraded while SQLite refuses writes (reads served, new work refused; 200 again once a write succeeds), 503 down when Redis or SQLite is down.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watchlist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Watched carriers (re-screened daily), soonest re-screen first
         * @description Cursor-paged, the carrier due for its re-screen soonest first.
         */
        get: operations["listWatchEntries"];
        put?: never;
        /**
         * Watch a carrier until removed
         * @description 201 when added, 200 when it was already watched (the note is kept unless a new one is sent).
         */
        post: operations["addWatchEntry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watchlist/{dot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One watched carrier (by DOT or MC number)
         * @description One watched carrier by DOT or MC number, with its last snapshot.
         */
        get: operations["getWatchEntry"];
        put?: never;
        post?: never;
        /**
         * Stop watching a carrier (a later tender puts it back)
         * @description It is watched again after its next tender screening.
         */
        delete: operations["removeWatchEntry"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Changes of watched carriers, newest first
         * @description Cursor-paged, newest first; filter by state, dot_number and updated_since. Sync with updated_since (your own read position): state=new is the desk's acknowledgement, not a TMS's.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/changes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One change
         * @description One change: before and after snapshots, why it counts, and the tenders that used the carrier.
         */
        get: operations["getChange"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/changes/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge a change (409 when already acknowledged)
         * @description Marks it seen by the desk (also the change.acknowledged event); 409 change_conflict when already acknowledged.
         */
        post: operations["acknowledgeChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Local do-not-use list (active by default)
         * @description Cursor-paged, newest first; active blocks unless state says otherwise.
         */
        get: operations["listBlocks"];
        put?: never;
        /**
         * Put a carrier on the local do-not-use list: every screening of it is blocked, without asking /v1
         * @description Blocks the carrier at once: its open review is closed and its waiting tenders blocked, in one commit. 409 block_conflict when already blocked.
         */
        post: operations["createBlock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocks/{dot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A carrier's active block (by DOT or MC number)
         * @description The carrier's active block; 404 when it has none.
         */
        get: operations["getBlock"];
        put?: never;
        post?: never;
        /**
         * Lift a local block (recorded, not deleted); who lifts it in ?by= and why in ?note= (no body)
         * @description Recorded, never deleted. 409 block_conflict (resource_id: the block) when its block is already lifted; 404 when it was never blocked.
         */
        delete: operations["liftBlock"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocks/{dot}/lift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a local block (the same as DELETE /blocks/:dot, with who lifts it and why in the body)
         * @description As DELETE /blocks/:dot, for clients that cannot send DELETE.
         */
        post: operations["liftBlockByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/screenings/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Screen up to 100 carriers at once; each item is answered on its own (207)
         * @description 207 with one answer per item, in order: 200 (done at once from the cache), 202 (queued) or the item's own 4xx/5xx with an error. An accepted item is exactly what POST /screenings makes. Send an Idempotency-Key: a retry returns the first answer whole.
         */
        post: operations["createScreeningBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Callback deliveries in one state (dead by default), most recently changed first
         * @description Cursor-paged; dead deliveries by default, most recently changed first.
         */
        get: operations["listCallbacks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One callback delivery
         * @description One delivery: its state, attempts and what the last attempt met.
         */
        get: operations["getCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a callback again now, with a fresh 24 h retry window (409 when already delivered)
         * @description 409 callback_delivered when delivered, callback_superseded when a newer callback of its screening is delivered or owed.
         */
        post: operations["retryCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a pending or dead callback: it is never sent unless retried (409 when already delivered)
         * @description A cancelled callback is kept and may be retried.
         */
        post: operations["cancelCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop every callback still owed to one URL (pending and dead ones): e.g. a TMS endpoint that is gone
         * @description Answers how many were cancelled; delivered ones are untouched.
         */
        post: operations["cancelCallbacksToUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The due-diligence record: one CSV row per screening created in [from, to), streamed
         * @description Columns: screening_id, created_at, completed_at, tender_id, dot_number, mc_number, legal_name, action, hold_reason, source, score, grade, decision, model_version, score_fetched_at, review_id, review_state, decided_by, token_id, decided_at, note, standing_decision_id, load_customer_ref, load_pickup_at, load_origin, load_destination, load_equipment. RFC 4180 quoting.
         */
        get: operations["exportAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Carrier decisions, newest first
         * @description Cursor-paged, newest first; filter by dot_number and state.
         */
        get: operations["listDecisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decisions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One carrier decision
         * @description One decision with its basis, expiry and how it ended.
         */
        get: operations["getDecision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decisions/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End a standing decision: the next hold of the carrier opens a review (409 when it no longer stands)
         * @description The next hold of the carrier opens a review again. Who revoked is the token's name (`by` only from an admin token). 409 decision_conflict when it no longer stands.
         */
        post: operations["revokeDecision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/carriers/{dot}/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox only: change a sandbox carrier's score from now on, and detect it now
         * @description Needs the reference emulator as the /v1 sandbox (502 `sandbox_control_unavailable` elsewhere).
         */
        post: operations["sandboxChangeCarrier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/decisions/{id}/lapse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox only: end a standing decision as lapsed now, as its TTL would (the next hold opens a review)
         * @description Ends a standing decision as lapsed now, as its TTL would: the next hold of the carrier opens a review. 403 sandbox_only on a live key.
         */
        post: operations["sandboxLapseDecision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/event-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event log to catch up from: newest first, cursor-paged, by type and time
         * @description Every event of the stream, kept SCREEN_EVENTS_RETENTION (7 days by default): newest first, cursor-paged by id, filtered by type (comma-separated) and created_gte / created_lt. Catch up after downtime from your last id (ending_before walks forward in time), or sync by time. A carrier.changed whose callback died is here too.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics: per-process counters and shared state read at scrape time (any token; a metrics token reads only this)
         * @description Prometheus text exposition: this process's counters and the shared state read at scrape time (docs/operations.md).
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "screening.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A screening with a callback_url is done
         * @description A signed POST to the callback_url, retried with backoff for 24 h until a 2xx (docs/callbacks.md). Delivery is at least once: de-duplicate on X-Carrier-Screen-Delivery.
         */
        post: operations["onScreeningCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "review.resolved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A held screening's review was decided, closed or superseded
         * @description A signed POST to the callback_url, retried with backoff for 24 h until a 2xx (docs/callbacks.md). Delivery is at least once: de-duplicate on X-Carrier-Screen-Delivery.
         */
        post: operations["onReviewResolved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "carrier.changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A watched carrier used by your tenders screens differently now
         * @description A signed POST to the callback_url, retried with backoff for 24 h until a 2xx (docs/callbacks.md). Delivery is at least once: de-duplicate on X-Carrier-Screen-Delivery.
         */
        post: operations["onCarrierChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * ErrorEnvelope
         * @description Every 4xx and 5xx answer.
         */
        ErrorEnvelope: {
            error: {
                /** @description What went wrong, for programs (the catalogue is in docs/api.md). Known values: invalid_request, unauthorized, forbidden, sandbox_only, resource_missing, route_not_found, method_not_allowed, review_conflict, review_stale, block_conflict, change_conflict, decision_conflict, callback_delivered, callback_superseded, idempotency_conflict, idempotency_in_progress, payload_too_large, unsupported_media_type, headers_too_large, request_timeout, rate_limited, too_many_streams, unavailable, storage_unavailable, sandbox_control_unavailable, internal_error; others may appear. */
                code: string;
                /** @description What went wrong, for people. */
                message: string;
                /** @description The parameter, field or header at fault. */
                param?: string;
                /** @description On a 409 *_conflict: the object already in the state asked for. */
                resource_id?: string;
                review?: components["schemas"]["Review"];
            } & {
                [key: string]: unknown;
            };
        };
        /**
         * Score
         * @description The /v1 score object exactly as the scoring service sent it (unknown fields kept; svc-v1-interface.md).
         */
        Score: {
            object: string;
            livemode: boolean;
            carrier: {
                dot_number: string;
                mc_number: string | null;
                legal_name: string | null;
                dba_name: string | null;
            } & {
                [key: string]: unknown;
            };
            score: number;
            /** @description Letter grade. Known values: A, B, C, D, F; others may appear. */
            grade: string;
            /** @description The service's decision. Known values: approved, review, high_risk, rejected; others may appear. */
            decision: string;
            verdict: string | null;
            needs_manual_review: boolean;
            knockout: {
                triggered: boolean;
                reasons: ({
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
            /** @description Every check that found a problem, most serious first. */
            reasons: ({
                /** @description Name of the check. */
                check?: string;
                /** @description One of seven areas, e.g. "Safety & Roadside". */
                area?: string;
                /** @description How serious. Known values: critical, review, medium, low; others may appear. */
                severity?: string;
                /** @description What was found, one sentence. */
                detail?: string;
                /** @description Figures behind the finding. */
                facts: ({
                    label?: string;
                    /** @description Display value: text (a number when /v1 drifts). */
                    value?: string | number;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            checks?: {
                [key: string]: unknown;
            };
            /** @description As sent: null is kept (a display field). */
            flags?: string[] | null;
            data_confidence: number | null;
            model_version: string;
            calculated_at: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * StandingDecisionRef
         * @description A standing carrier decision as it was when it settled a screening.
         */
        StandingDecisionRef: {
            id: string;
            review_id: string;
            decision: "approved" | "rejected";
            decided_by: string;
            token_id?: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            decided_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            expires_at: string;
            model_version: string | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * Load
         * @description The load a tender is for, exactly as POST /screenings sent it (each field optional); the desk shows it, it never changes the action.
         */
        Load: {
            /**
             * Format: date-time
             * @description When the load is picked up: ISO 8601 with its offset, as sent.
             */
            pickup_at?: string;
            /** @description Where the load is picked up. */
            origin?: string;
            /** @description Where it is delivered. */
            destination?: string;
            /** @description The equipment it needs, e.g. "53 ft dry van". */
            equipment?: string;
            /** @description The customer's reference. */
            customer_ref?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * ScreeningQueued
         * @description A screening waiting for its /v1 lookup: look again after Retry-After, or take the callback.
         */
        ScreeningQueued: {
            /** @enum {string} */
            object: "screening";
            /** @description "scr_" and 26 characters a–z, 2–7 */
            id: string;
            tender_id: string | null;
            load: components["schemas"]["Load"] | null;
            /** @description What was asked, normalised: exactly one of the two. */
            query: {
                dot_number?: string;
                mc_number?: string;
            };
            priority: "tender" | "background";
            /** @description The request skipped the cache (a re-check). */
            refresh: boolean;
            action: ("tender" | "hold" | "block") | null;
            hold_reason: string | null;
            source: string | null;
            score: components["schemas"]["Score"] | null;
            score_fetched_at: string | null;
            score_age_seconds: number | null;
            review: {
                id: string;
                state: "pending" | "approved" | "rejected" | "closed" | "superseded";
                decided_by: string | null;
                decided_at: string | null;
                note: string | null;
            } | null;
            settled_by: string | null;
            standing_decision: components["schemas"]["StandingDecisionRef"] | null;
            error: {
                /** @description /v1's own code (carrier_not_found …), or ours: service_unreachable, deadline_exceeded, invalid_response, key_rejected, local_block … Never a raw network code. */
                code: string;
                message: string;
                request_id: string | null;
            } | null;
            callback_url: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            completed_at: string | null;
            /**
             * Format: date-time
             * @description When it last changed: created, completed or settled by its review.
             */
            updated_at: string;
            /** @description Grows with every change of this screening; apply a callback or a read only when its version is newer than the one you hold (docs/callbacks.md). */
            version: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "queued";
        } & {
            [key: string]: unknown;
        };
        /**
         * ScreeningActive
         * @description A screening whose /v1 lookup is under way.
         */
        ScreeningActive: {
            /** @enum {string} */
            object: "screening";
            /** @description "scr_" and 26 characters a–z, 2–7 */
            id: string;
            tender_id: string | null;
            load: components["schemas"]["Load"] | null;
            /** @description What was asked, normalised: exactly one of the two. */
            query: {
                dot_number?: string;
                mc_number?: string;
            };
            priority: "tender" | "background";
            /** @description The request skipped the cache (a re-check). */
            refresh: boolean;
            action: ("tender" | "hold" | "block") | null;
            hold_reason: string | null;
            source: string | null;
            score: components["schemas"]["Score"] | null;
            score_fetched_at: string | null;
            score_age_seconds: number | null;
            review: {
                id: string;
                state: "pending" | "approved" | "rejected" | "closed" | "superseded";
                decided_by: string | null;
                decided_at: string | null;
                note: string | null;
            } | null;
            settled_by: string | null;
            standing_decision: components["schemas"]["StandingDecisionRef"] | null;
            error: {
                /** @description /v1's own code (carrier_not_found …), or ours: service_unreachable, deadline_exceeded, invalid_response, key_rejected, local_block … Never a raw network code. */
                code: string;
                message: string;
                request_id: string | null;
            } | null;
            callback_url: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            completed_at: string | null;
            /**
             * Format: date-time
             * @description When it last changed: created, completed or settled by its review.
             */
            updated_at: string;
            /** @description Grows with every change of this screening; apply a callback or a read only when its version is newer than the one you hold (docs/callbacks.md). */
            version: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "active";
        } & {
            [key: string]: unknown;
        };
        /**
         * ScreeningDone
         * @description A finished screening: its action is what to do with the tender now.
         */
        ScreeningDone: {
            /** @enum {string} */
            object: "screening";
            /** @description "scr_" and 26 characters a–z, 2–7 */
            id: string;
            tender_id: string | null;
            load: components["schemas"]["Load"] | null;
            /** @description What was asked, normalised: exactly one of the two. */
            query: {
                dot_number?: string;
                mc_number?: string;
            };
            priority: "tender" | "background";
            /** @description The request skipped the cache (a re-check). */
            refresh: boolean;
            /** @description What to do now (a held one may later be settled by its review). */
            action: "tender" | "hold" | "block";
            hold_reason: string | null;
            source: string | null;
            score: components["schemas"]["Score"] | null;
            score_fetched_at: string | null;
            score_age_seconds: number | null;
            review: {
                id: string;
                state: "pending" | "approved" | "rejected" | "closed" | "superseded";
                decided_by: string | null;
                decided_at: string | null;
                note: string | null;
            } | null;
            settled_by: string | null;
            standing_decision: components["schemas"]["StandingDecisionRef"] | null;
            error: {
                /** @description /v1's own code (carrier_not_found …), or ours: service_unreachable, deadline_exceeded, invalid_response, key_rejected, local_block … Never a raw network code. */
                code: string;
                message: string;
                request_id: string | null;
            } | null;
            callback_url: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it was done.
             */
            completed_at: string;
            /**
             * Format: date-time
             * @description When it last changed: created, completed or settled by its review.
             */
            updated_at: string;
            /** @description Grows with every change of this screening; apply a callback or a read only when its version is newer than the one you hold (docs/callbacks.md). */
            version: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "done";
        } & {
            [key: string]: unknown;
        };
        /**
         * Screening
         * @description One screening of one carrier for one tender, by status (docs/decisions.md for settled_by).
         */
        Screening: components["schemas"]["ScreeningQueued"] | components["schemas"]["ScreeningActive"] | components["schemas"]["ScreeningDone"];
        /**
         * Review
         * @description A carrier held for a person: one open review per carrier, every waiting tender on it.
         */
        Review: {
            /** @enum {string} */
            object: "review";
            /** @description "rev_" and 26 characters a–z, 2–7 */
            id: string;
            screening_id: string;
            /** @description closed: ended without a person by a blocking score or a local block (closed_by); its tenders are blocked. superseded: closed by a re-screen after an outage that gave tender or block (no person decided). */
            state: "pending" | "approved" | "rejected" | "closed" | "superseded";
            /** @description The version of the facts it shows: 1 when opened, +1 whenever they change (a newer score, closed). Send it as review_version with approve/reject. */
            version: number;
            /** @description The newest facts about the carrier. */
            latest: {
                /** @description The screening the newest score came with (the review's own until a newer one). */
                screening_id: string;
                score: components["schemas"]["Score"] | null;
                score_fetched_at: string | null;
                /** @description What differs from the score the review was opened on, e.g. "grade D → F". */
                changes: string[];
            } & {
                [key: string]: unknown;
            };
            closed_by: ("blocking_score" | "local_block") | null;
            closed_reason: string | null;
            token_id: string | null;
            /** @description Why the carrier was held. Known values: manual_review, unknown_decision, scoring_unavailable, quota_exhausted, quota_reserved, service_error; others may appear. */
            hold_reason: string;
            decided_by: string | null;
            decided_at: string | null;
            note: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed: opened, a tender joined it, newer facts shown, decided or closed.
             */
            updated_at: string;
            screening: components["schemas"]["Screening"];
            /** @description Every held tender of the carrier on this review, oldest first. */
            tenders: {
                screening_id: string;
                tender_id: string | null;
                load: components["schemas"]["Load"] | null;
                action: ("tender" | "hold" | "block") | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                created_at: string;
            }[];
            waits_on: string | null;
            previous_decision: ({
                id: string;
                review_id: string;
                decision: "approved" | "rejected";
                decided_by: string;
                token_id?: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                decided_at: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                expires_at: string;
                model_version: string | null;
                state?: "lapsed" | "revoked";
                ended_at?: string | null;
                ended_by?: string | null;
                note?: string | null;
                /** @description What changed in the basis (a lapse), e.g. "grade D → C". */
                changes: string[];
            } & {
                [key: string]: unknown;
            }) | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * Decision
         * @description A dispatcher's decision about a carrier, standing for later screenings while the basis holds.
         */
        Decision: {
            /** @enum {string} */
            object: "decision";
            /** @description "dec_" and 26 characters a–z, 2–7 */
            id: string;
            review_id: string;
            dot_number: string | null;
            mc_number: string | null;
            legal_name: string | null;
            decision: "approved" | "rejected";
            state: "standing" | "lapsed" | "revoked";
            /** @description What the decision rests on. */
            basis: {
                decision: string;
                grade: string;
                needs_manual_review: boolean;
                knockout_codes: string[];
                reason_checks: string[];
            } & {
                [key: string]: unknown;
            };
            model_version: string | null;
            decided_by: string;
            token_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            decided_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            expires_at: string;
            ended_at: string | null;
            ended_by: string | null;
            ended_token_id: string | null;
            end_reason: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            updated_at: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * WatchEntry
         * @description A watched carrier, re-screened daily (docs/watchlist.md).
         */
        WatchEntry: {
            /** @enum {string} */
            object: "watch_entry";
            dot_number: string | null;
            mc_number: string | null;
            note: string | null;
            /** @description Added by POST /watchlist: watched until removed. */
            manual: boolean;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            added_at: string;
            last_tender_at: string | null;
            watch_until: string | null;
            last_checked_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            next_check_at: string;
            last: ({
                action: "tender" | "hold" | "block";
                hold_reason: string | null;
                decision: string;
                score: number | null;
                grade: string | null;
                knockout_codes: string[];
                model_version: string;
                screening_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                fetched_at: string;
            } & {
                [key: string]: unknown;
            }) | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            updated_at: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * CarrierChange
         * @description A watched carrier that screens differently now.
         */
        CarrierChange: {
            /** @enum {string} */
            object: "carrier_change";
            /** @description "chg_" and 26 characters a–z, 2–7 */
            id: string;
            dot_number: string | null;
            mc_number: string | null;
            legal_name: string | null;
            reasons: string[];
            before: {
                action: "tender" | "hold" | "block";
                hold_reason: string | null;
                decision: string;
                score: number | null;
                grade: string | null;
                knockout_codes: string[];
                model_version: string;
                screening_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                fetched_at: string;
            } & {
                [key: string]: unknown;
            };
            after: {
                action: "tender" | "hold" | "block";
                hold_reason: string | null;
                decision: string;
                score: number | null;
                grade: string | null;
                knockout_codes: string[];
                model_version: string;
                screening_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                fetched_at: string;
            } & {
                [key: string]: unknown;
            };
            screening_id: string;
            /** @description Every tender of the carrier in the watch window (SCREEN_WATCH_DAYS), oldest first. */
            tenders: {
                tender_id: string;
                screening_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                screened_at: string;
                action?: ("tender" | "hold" | "block") | null;
                hold_reason?: string | null;
                settled_by?: string | null;
            }[];
            findings: {
                added: {
                    /** @description A check that found something (a score reason) or a knockout. */
                    kind: "reason" | "knockout";
                    /** @description Its identity: the reason's check, or the knockout's code. */
                    code: string;
                    /** @description The reason's severity; critical for a knockout. Known values: critical, review, medium, low; others may appear. */
                    severity: string;
                    area: string | null;
                    /** @description The words the score gave it. */
                    detail: string;
                }[];
                removed: {
                    /** @description A check that found something (a score reason) or a knockout. */
                    kind: "reason" | "knockout";
                    /** @description Its identity: the reason's check, or the knockout's code. */
                    code: string;
                    /** @description The reason's severity; critical for a knockout. Known values: critical, review, medium, low; others may appear. */
                    severity: string;
                    area: string | null;
                    /** @description The words the score gave it. */
                    detail: string;
                }[];
            } | null;
            state: "new" | "acknowledged";
            acknowledged_by: string | null;
            acknowledged_at: string | null;
            ack_note: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            detected_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            updated_at: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * LocalBlock
         * @description A carrier on the local do-not-use list: every screening of it is blocked without asking /v1.
         */
        LocalBlock: {
            /** @enum {string} */
            object: "local_block";
            id: string;
            dot_number: string | null;
            mc_number: string | null;
            reason: string;
            state: "active" | "lifted";
            blocked_by: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            blocked_at: string;
            token_id: string | null;
            lifted_by: string | null;
            lifted_at: string | null;
            lifted_token_id: string | null;
            lift_note: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            updated_at: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * Callback
         * @description One callback owed to a TMS, from the outbox (docs/callbacks.md).
         */
        Callback: {
            /** @enum {string} */
            object: "callback";
            id: string;
            /** @description Stable across attempts: the X-Delivery-Id the TMS sees. */
            delivery_id: string;
            event: string;
            url: string;
            /** @description cancelled: stopped by POST /callbacks/:id/cancel or POST /callbacks/cancel; never sent unless retried. */
            state: "pending" | "delivered" | "dead" | "cancelled";
            screening_id: string | null;
            version: number | null;
            attempts: number;
            next_attempt_at: string | null;
            last_status: number | null;
            last_error: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            updated_at: string;
            delivered_at: string | null;
            cancelled_at: string | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * Status
         * @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability.
         */
        Status: {
            /** @enum {string} */
            object: "status";
            environment: "sandbox" | "live";
            queue: {
                waiting: number;
                active: number;
                delayed: number;
                failed: number;
                completed: number;
                paused: boolean;
            };
            quota: {
                livemode: boolean;
                monthly_quota: number | null;
                used: number | null;
                remaining: number | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                resets_at: string;
                gate: "open" | "reserve" | "closed";
                reserve: number | null;
                updated_at: string | null;
            } & {
                [key: string]: unknown;
            };
            rate_limit: {
                per_minute: number | null;
                remaining: number | null;
                resets_at: string | null;
            } & {
                [key: string]: unknown;
            };
            reviews: {
                pending: number;
                oldest_pending_at?: string | null;
            } & {
                [key: string]: unknown;
            };
            callbacks?: {
                pending: number;
                delivered: number;
                dead: number;
                cancelled?: number;
            } & {
                [key: string]: unknown;
            };
            service: {
                reachable: boolean;
                checked_at: string | null;
                last_error: string | null;
                key_rejected: boolean;
                hold_off_until?: string | null;
                environment_mismatch?: string | null;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /**
         * Caller
         * @description Who a bearer token is (GET /me): what the desk shows as signed in, and whose name its decisions carry.
         */
        Caller: {
            /** @enum {string} */
            object: "caller";
            token_id: string | null;
            name: string | null;
            role: "metrics" | "tms" | "desk" | "admin";
        } & {
            [key: string]: unknown;
        };
        /**
         * DailyUsage
         * @description Live lookups per UTC day this month.
         */
        DailyUsage: {
            /** @enum {string} */
            object: "usage_daily";
            month: string;
            monthly_quota: number | null;
            days: {
                day: string;
                lookups: number;
            }[];
        } & {
            [key: string]: unknown;
        };
        /**
         * ScreeningCallback
         * @description The body of a screening.completed or review.resolved callback (docs/callbacks.md): the screening as GET /screenings/:id returns it.
         */
        ScreeningCallback: {
            /** @description Also in the X-Carrier-Screen-Event header. */
            event: "screening.completed" | "review.resolved";
            /** @description Stable per event (X-Carrier-Screen-Delivery): de-duplicate on it. */
            delivery_id: string;
            /** @description The screening's version: apply only when newer than the one you hold. */
            version: number;
            screening: components["schemas"]["Screening"];
        } & {
            [key: string]: unknown;
        };
        /**
         * CarrierChangedCallback
         * @description The body of a carrier.changed callback (docs/watchlist.md): a watched carrier screens differently now. Not ordered with the screening callbacks; carries no version.
         */
        CarrierChangedCallback: {
            /** @enum {string} */
            event: "carrier.changed";
            /** @description Stable per event (X-Carrier-Screen-Delivery): de-duplicate on it. */
            delivery_id: string;
            change: components["schemas"]["CarrierChange"];
        } & {
            [key: string]: unknown;
        };
        /**
         * StreamEvent
         * @description One Server-Sent Event of GET /events, its `data:` line parsed. Event names are an open set: ignore one you do not know.
         */
        StreamEvent: {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "screening.completed";
            data: components["schemas"]["Screening"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "review.created";
            data: components["schemas"]["Review"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "review.updated";
            data: components["schemas"]["Review"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "review.resolved";
            data: components["schemas"]["Review"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "carrier.changed";
            data: components["schemas"]["CarrierChange"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "change.acknowledged";
            data: components["schemas"]["CarrierChange"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "quota.changed";
            /** @description As Status.quota. */
            data: {
                [key: string]: unknown;
            };
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "queue.changed";
            /** @description As Status.queue. */
            data: {
                [key: string]: unknown;
            };
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "decision.lapsed";
            data: components["schemas"]["Decision"];
        } | {
            /** @description The `id:` line: send it back as Last-Event-ID to replay what followed. */
            id: number;
            /** @enum {string} */
            event: "decision.revoked";
            data: components["schemas"]["Decision"];
        };
    };
    responses: never;
    parameters: {
        /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
        CarrierScreenVersion: string;
        /** @description Any unique string (1–255 printable ASCII): the same key and body within 24 h replays the first answer (Idempotent-Replayed: true); another body is 409 idempotency_conflict. */
        IdempotencyKey: string;
        /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
        XRequestId: string;
        /** @description The id of the last event received: the stream first replays what followed it. */
        LastEventId: string;
    };
    requestBodies: never;
    headers: {
        /** @description The id of this request: yours when you sent a sane one, else ours (req_…). Quote it to support; it is in our logs. */
        XRequestId: string;
        /** @description The API version that answered (a date). */
        CarrierScreenVersion: string;
        /** @description Seconds to wait before looking again (a queued screening, a rate limit, a moment of unavailability). */
        RetryAfter: number;
        /** @description "true" when this answer replays an earlier request with the same Idempotency-Key. */
        IdempotentReplayed: "true";
        /** @description Where the screening is read: /screenings/{id}. */
        Location: string;
        /** @description Bearer. */
        WwwAuthenticate: string;
        /** @description Requests a minute this token may send (INTAKE_RATE_LIMIT; absent when off). */
        RateLimitLimit: number;
        /** @description Requests left in this minute. */
        RateLimitRemaining: number;
        /** @description Seconds until the minute resets. */
        RateLimitReset: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listScreenings: {
        parameters: {
            query?: {
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
                /** @description queued, active, done or all (default all) */
                status?: "queued" | "active" | "done" | "all";
                /** @description the TMS load id sent with the screening */
                tender_id?: string;
                /** @description screenings asked by this DOT number or whose score names it */
                dot_number?: string;
                /** @description screenings asked by this MC number or whose score names it */
                mc_number?: string;
                /** @description tender, hold or block (an open set: new actions may appear) */
                action?: string;
                /** @description ISO 8601: screenings created, completed or settled at or after it */
                updated_since?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Screening"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createScreening: {
        parameters: {
            query?: {
                /** @description a whole number of seconds from 0 to 30 */
                wait?: number;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
                /** @description Any unique string (1–255 printable ASCII): the same key and body within 24 h replays the first answer (Idempotent-Replayed: true); another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of dot_number or mc_number. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description a string of 1 to 8 digits (a JSON integer is accepted too) */
                    dot_number?: string | number;
                    /** @description an MC docket number: "MC" followed by 1 to 8 digits (mc123, MC-123, MC 123 are accepted) */
                    mc_number?: string;
                    /** @description a string of 1 to 128 characters (or null) */
                    tender_id?: string | null;
                    /** @description an absolute http or https URL */
                    callback_url?: string | null;
                    /** @description "tender" (default) or "background" */
                    priority?: "tender" | "background";
                    /** @description true or false: true skips the cache and asks /v1 now (spends quota) */
                    refresh?: boolean;
                    /** @description an object (or null) with any of pickup_at, origin, destination, equipment, customer_ref: the load this tender is for, shown on the desk */
                    load?: {
                        /**
                         * Format: date-time
                         * @description an ISO 8601 date-time with its offset, e.g. "2026-11-28T08:00:00-06:00"
                         */
                        pickup_at?: string;
                        /** @description a string of at most 200 characters: where the load is picked up */
                        origin?: string;
                        /** @description a string of at most 200 characters: where it is delivered */
                        destination?: string;
                        /** @description a string of at most 200 characters: the equipment it needs, e.g. "53 ft dry van" */
                        equipment?: string;
                        /** @description a string of at most 200 characters: the customer's reference */
                        customer_ref?: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description One screening of one carrier for one tender, by status (docs/decisions.md for settled_by). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    Location: components["headers"]["Location"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description One screening of one carrier for one tender, by status (docs/decisions.md for settled_by). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    Location: components["headers"]["Location"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getScreening: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a screening id: "scr_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One screening of one carrier for one tender, by status (docs/decisions.md for settled_by). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listReviews: {
        parameters: {
            query?: {
                /** @description pending (oldest first), approved, rejected, decided (approved or rejected: the latest decisions first), closed (by a blocking score or a local block), superseded (by a re-screen after an outage) or all (default all, newest first) */
                state?: "pending" | "approved" | "rejected" | "decided" | "closed" | "superseded" | "all";
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Review"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a review id: "rev_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A carrier held for a person: one open review per carrier, every waiting tender on it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approveReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
                /** @description Any unique string (1–255 printable ASCII): the same key and body within 24 h replays the first answer (Idempotent-Replayed: true); another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description a review id: "rev_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description who decided, 1 to 100 characters: taken only from an admin token (acting for that person); a desk token decides as its own name */
                    by?: string;
                    /** @description a note of at most 2000 characters */
                    note?: string | null;
                    /** @description the review's `version` as you saw it (default 1: the facts it was opened with); 409 review_stale when the carrier's facts changed since */
                    review_version?: number;
                };
            };
        };
        responses: {
            /** @description A carrier held for a person: one open review per carrier, every waiting tender on it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rejectReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
                /** @description Any unique string (1–255 printable ASCII): the same key and body within 24 h replays the first answer (Idempotent-Replayed: true); another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description a review id: "rev_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description who decided, 1 to 100 characters: taken only from an admin token (acting for that person); a desk token decides as its own name */
                    by?: string;
                    /** @description a note of at most 2000 characters */
                    note?: string | null;
                    /** @description the review's `version` as you saw it (default 1: the facts it was opened with); 409 review_stale when the carrier's facts changed since */
                    review_version?: number;
                    /** @description also put the carrier on the local do-not-use list (/blocks), with the note as its reason */
                    block?: boolean;
                };
            };
        };
        responses: {
            /** @description A carrier held for a person: one open review per carrier, every waiting tender on it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Who a bearer token is (GET /me): what the desk shows as signed in, and whose name its decisions carry. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Caller"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDailyUsage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live lookups per UTC day this month. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DailyUsage"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pauseQueue: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resumeQueue: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description the id of the last event received (like the Last-Event-ID header) */
                last_event_id?: number;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
                /** @description The id of the last event received: the stream first replays what followed it. */
                "Last-Event-ID"?: components["parameters"]["LastEventId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of Server-Sent Events (screening.completed, review.created, review.updated, review.resolved, carrier.changed, change.acknowledged, quota.changed, queue.changed, decision.lapsed, decision.revoked; an open set), each an id:, event: and one data: line of JSON; the data of each is in the StreamEvent schema. A comment line every 15 s keeps it open. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ok; degraded (/v1 unreachable, refusing the API key or holding off after a long Retry-After, cache still served: 200; or the record refusing writes, e.g. a full disk: 503, reads still served); or down (Redis or the record down: 503) */
                        status: string;
                        redis: boolean;
                        /** @description The record (SQLite or PostgreSQL) answers reads. */
                        record: boolean;
                        /** @description false when a write probe failed, or a write was refused and none has succeeded since (at most a minute): a full disk, a read-only standby */
                        record_writable: boolean;
                        /** @description Which engine holds the record (SCREEN_DB). */
                        record_backend: "sqlite" | "postgresql";
                        /**
                         * @deprecated
                         * @description On SQLite only: the same as `record`, for probes written before PostgreSQL.
                         */
                        sqlite?: boolean;
                        /**
                         * @deprecated
                         * @description On SQLite only: the same as `record_writable`, for probes written before PostgreSQL.
                         */
                        sqlite_writable?: boolean;
                        svc: boolean;
                        /** @description true when /v1 refused the API key at the last call (svc is false then) */
                        svc_key_rejected?: boolean;
                        error?: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description unavailable or storage_unavailable (Redis or SQLite), or the intake is closing: retry after Retry-After. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ok; degraded (/v1 unreachable, refusing the API key or holding off after a long Retry-After, cache still served: 200; or the record refusing writes, e.g. a full disk: 503, reads still served); or down (Redis or the record down: 503) */
                        status: string;
                        redis: boolean;
                        /** @description The record (SQLite or PostgreSQL) answers reads. */
                        record: boolean;
                        /** @description false when a write probe failed, or a write was refused and none has succeeded since (at most a minute): a full disk, a read-only standby */
                        record_writable: boolean;
                        /** @description Which engine holds the record (SCREEN_DB). */
                        record_backend: "sqlite" | "postgresql";
                        /**
                         * @deprecated
                         * @description On SQLite only: the same as `record`, for probes written before PostgreSQL.
                         */
                        sqlite?: boolean;
                        /**
                         * @deprecated
                         * @description On SQLite only: the same as `record_writable`, for probes written before PostgreSQL.
                         */
                        sqlite_writable?: boolean;
                        svc: boolean;
                        /** @description true when /v1 refused the API key at the last call (svc is false then) */
                        svc_key_rejected?: boolean;
                        error?: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listWatchEntries: {
        parameters: {
            query?: {
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["WatchEntry"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    addWatchEntry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of dot_number or mc_number. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description a string of 1 to 8 digits (a JSON integer is accepted too) */
                    dot_number?: string | number;
                    /** @description an MC docket number: "MC" followed by 1 to 8 digits (mc123, MC-123, MC 123 are accepted) */
                    mc_number?: string;
                    /** @description a note of at most 500 characters */
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description A watched carrier, re-screened daily (docs/watchlist.md). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEntry"];
                };
            };
            /** @description A watched carrier, re-screened daily (docs/watchlist.md). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEntry"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWatchEntry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A watched carrier, re-screened daily (docs/watchlist.md). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEntry"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    removeWatchEntry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "watch_entry_removed";
                        dot_number: string | null;
                        mc_number: string | null;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listChanges: {
        parameters: {
            query?: {
                /** @description new, acknowledged or all (default all) */
                state?: "new" | "acknowledged" | "all";
                /** @description ISO 8601: changes detected or acknowledged at or after it (a TMS's own read position; state=new is the desk's) */
                updated_since?: string;
                /** @description changes of the carrier with this DOT number (1 to 8 digits) */
                dot_number?: string;
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["CarrierChange"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getChange: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a change id: "chg_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A watched carrier that screens differently now. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CarrierChange"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    acknowledgeChange: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a change id: "chg_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description who did it: 1 to 100 characters, not only spaces (default: the token's name) */
                    by?: string;
                    /** @description why it is acknowledged (what was done about the loads): at most 500 characters, kept with the acknowledgement */
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description A watched carrier that screens differently now. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CarrierChange"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listBlocks: {
        parameters: {
            query?: {
                /** @description active (default), lifted or all */
                state?: "active" | "lifted" | "all";
                /** @description the blocks of the carrier with this DOT number (1 to 8 digits), newest block first */
                dot_number?: string;
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["LocalBlock"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createBlock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of dot_number or mc_number, who blocks and why. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description a string of 1 to 8 digits (a JSON integer is accepted too) */
                    dot_number?: string | number;
                    /** @description an MC docket number: "MC" followed by 1 to 8 digits (mc123, MC-123, MC 123 are accepted) */
                    mc_number?: string;
                    /** @description who did it: 1 to 100 characters, not only spaces (default: the token's name) */
                    by?: string;
                    /** @description why: 1 to 500 characters, not only spaces */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description A carrier on the local do-not-use list: every screening of it is blocked without asking /v1. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getBlock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A carrier on the local do-not-use list: every screening of it is blocked without asking /v1. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    liftBlock: {
        parameters: {
            query?: {
                /** @description who did it: 1 to 100 characters, not only spaces (default: the token's name) */
                by?: string;
                /** @description why the block is lifted: at most 500 characters, kept with the lift */
                note?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A carrier on the local do-not-use list: every screening of it is blocked without asking /v1. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    liftBlockByPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description who did it: 1 to 100 characters, not only spaces (default: the token's name) */
                    by?: string;
                    /** @description why the block is lifted: at most 500 characters, kept with the lift */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description A carrier on the local do-not-use list: every screening of it is blocked without asking /v1. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createScreeningBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
                /** @description Any unique string (1–255 printable ASCII): the same key and body within 24 h replays the first answer (Idempotent-Replayed: true); another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 objects shaped like the body of POST /screenings */
                    screenings: {
                        [key: string]: unknown;
                    }[];
                };
            };
        };
        responses: {
            /** @description One answer per item. */
            207: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "batch_result";
                        data: ({
                            /** @description the position of the item in the request */
                            index: number;
                            /** @enum {number} */
                            status: 200;
                            screening: components["schemas"]["ScreeningDone"];
                        } | {
                            /** @description the position of the item in the request */
                            index: number;
                            /** @enum {number} */
                            status: 202;
                            screening: components["schemas"]["Screening"];
                        } | {
                            /** @description the position of the item in the request */
                            index: number;
                            /** @description The status POST /screenings would have answered. */
                            status: 400 | 403 | 404 | 409 | 429 | 500 | 503;
                            /** @description as in ErrorEnvelope */
                            error: {
                                code: string;
                                message: string;
                                param?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        })[];
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCallbacks: {
        parameters: {
            query?: {
                /** @description pending, delivered, dead, cancelled or all (default dead) */
                state?: "pending" | "delivered" | "dead" | "cancelled" | "all";
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Callback"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCallback: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a callback id: "cb_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One callback owed to a TMS, from the outbox (docs/callbacks.md). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryCallback: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a callback id: "cb_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One callback owed to a TMS, from the outbox (docs/callbacks.md). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelCallback: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a callback id: "cb_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One callback owed to a TMS, from the outbox (docs/callbacks.md). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelCallbacksToUrl: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The callback_url whose deliveries to stop (compared after URL normalisation, as stored). */
                    url: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "callback_cancellation";
                        url: string;
                        /** @description How many pending or dead deliveries were cancelled. */
                        cancelled: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    exportAudit: {
        parameters: {
            query?: {
                /** @description ISO 8601 (UTC), inclusive; default 30 days before `to` */
                from?: string;
                /** @description ISO 8601 (UTC), exclusive; default now */
                to?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV with a header row (Content-Disposition names the file). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listDecisions: {
        parameters: {
            query?: {
                /** @description 1 to 8 digits */
                dot_number?: string;
                /** @description standing, lapsed, revoked, ended (lapsed or revoked, latest end first) or all (default all) */
                state?: "standing" | "lapsed" | "revoked" | "ended" | "all";
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Decision"][];
                        /** @description More objects beyond this page in the direction asked. */
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDecision: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a decision id: "dec_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A dispatcher's decision about a carrier, standing for later screenings while the basis holds. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeDecision: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a decision id: "dec_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description who decided, 1 to 100 characters: taken only from an admin token (acting for that person); a desk token decides as its own name */
                    by?: string;
                    /** @description a note of at most 2000 characters */
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description A dispatcher's decision about a carrier, standing for later screenings while the basis holds. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    sandboxChangeCarrier: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a sandbox DOT number (1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description authority_revoked or insurance_lapsed (a knockout: rejected), safety_downgrade (findings added: the decision and grade fall), or reset (the fixture again) */
                    change: "authority_revoked" | "insurance_lapsed" | "safety_downgrade" | "reset";
                    /** @description true (default): re-screen the carrier now with refresh, so the change is detected and announced */
                    check_now?: boolean;
                };
            };
        };
        responses: {
            /** @description A sandbox carrier's score change, and the re-screen that detects it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "sandbox_change";
                        dot_number: string;
                        change: string;
                        /** @description the re-screen started by check_now (null without it) */
                        screening: components["schemas"]["Screening"] | null;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    sandboxLapseDecision: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path: {
                /** @description a decision id: "dec_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A dispatcher's decision about a carrier, standing for later screenings while the basis holds. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description event names, comma-separated (e.g. carrier.changed,review.resolved); default all */
                type?: string;
                /** @description ISO 8601: events created at or after it */
                created_gte?: string;
                /** @description ISO 8601: events created before it */
                created_lt?: string;
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: {
                            /** @enum {string} */
                            object: "event";
                            /** @description The same id as the stream's `id:` line (Last-Event-ID); the cursor of this list. */
                            id: number;
                            /** @description The event name, as on the stream (an open set: ignore one you do not know). */
                            event: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description As the stream sends it (StreamEvent): the object as it is now. */
                            data: unknown;
                        }[];
                        has_more: boolean;
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest. */
                "Carrier-Screen-Version"?: components["parameters"]["CarrierScreenVersion"];
                /** @description Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane. */
                "X-Request-Id"?: components["parameters"]["XRequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format 0.0.4. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Carrier-Screen-Version": components["headers"]["CarrierScreenVersion"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    onScreeningCompleted: {
        parameters: {
            query?: never;
            header: {
                /** @description The event: screening.completed, review.resolved or carrier.changed (an open set). */
                "X-Carrier-Screen-Event": string;
                /** @description Stable per event: de-duplicate on it. */
                "X-Carrier-Screen-Delivery": string;
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with CALLBACK_SECRET>: verify it, and refuse an old t (docs/callbacks.md). */
                "X-Carrier-Screen-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScreeningCallback"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges it (answer quickly, work afterwards). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, a time-out (10 s) or a network error: it is sent again later. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onReviewResolved: {
        parameters: {
            query?: never;
            header: {
                /** @description The event: screening.completed, review.resolved or carrier.changed (an open set). */
                "X-Carrier-Screen-Event": string;
                /** @description Stable per event: de-duplicate on it. */
                "X-Carrier-Screen-Delivery": string;
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with CALLBACK_SECRET>: verify it, and refuse an old t (docs/callbacks.md). */
                "X-Carrier-Screen-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScreeningCallback"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges it (answer quickly, work afterwards). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, a time-out (10 s) or a network error: it is sent again later. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCarrierChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description The event: screening.completed, review.resolved or carrier.changed (an open set). */
                "X-Carrier-Screen-Event": string;
                /** @description Stable per event: de-duplicate on it. */
                "X-Carrier-Screen-Delivery": string;
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with CALLBACK_SECRET>: verify it, and refuse an old t (docs/callbacks.md). */
                "X-Carrier-Screen-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CarrierChangedCallback"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges it (answer quickly, work afterwards). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, a time-out (10 s) or a network error: it is sent again later. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
