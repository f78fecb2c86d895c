/* Generated from the intake's /openapi.json by openapi-typescript (npm run gen:client). Do not edit. */

export interface paths {
    "/screenings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent screenings, newest first */
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
        /** One screening */
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
        /** Review items (pending: oldest first) */
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
        /** One review item */
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
        /** Queue, quota, rate limit, reviews, /v1 reachability */
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
        /** Who the bearer token is: its id, name and role */
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
        /** Live lookups per UTC day this month */
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
        /** Stop calling /v1 (intake keeps accepting) */
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
        /** Resume calling /v1 */
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
         * Server-Sent Events: screening.completed, review.created, review.resolved, quota.changed, queue.changed
         * @description Send Last-Event-ID (header) or last_event_id (query) to replay what was missed. At most INTAKE_SSE_PER_TOKEN open streams per token (429 too_many_streams); a revoked token's streams end within seconds.
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
        /** Health (no auth) */
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
        /** Watched carriers (re-screened daily), soonest re-screen first */
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
        /** One watched carrier (by DOT or MC number) */
        get: operations["getWatchEntry"];
        put?: never;
        post?: never;
        /** Stop watching a carrier (a later tender puts it back) */
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
        /** Changes of watched carriers, newest first */
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
        /** One change */
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
        /** Acknowledge a change (409 when already acknowledged) */
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
        /** Local do-not-use list (active by default) */
        get: operations["listBlocks"];
        put?: never;
        /** Put a carrier on the local do-not-use list: every screening of it is blocked, without asking /v1 */
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
        /** A carrier's active block (by DOT or MC number) */
        get: operations["getBlock"];
        put?: never;
        post?: never;
        /** Lift a local block (recorded, not deleted); who lifts it in ?by= (no body) */
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
        /** Lift a local block (the same as DELETE /blocks/:dot, with who lifts it in the body) */
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
        /** Screen up to 100 carriers at once; each item is answered on its own (207) */
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
        /** Callback deliveries in one state (dead by default), most recently changed first */
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
        /** One callback delivery */
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
        /** Send a callback again now, with a fresh 24 h retry window (409 when already delivered) */
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
        /** Stop a pending or dead callback: it is never sent unless retried (409 when already delivered) */
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
        /** Stop every callback still owed to one URL (pending and dead ones): e.g. a TMS endpoint that is gone */
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
         * @description Columns: screening_id, created_at, completed_at, tender_id, dot_number, mc_number, legal_name, action, hold_reason, source, score, grade, decision, model_version, score_fetched_at, review_id, review_state, decided_by, token_id, decided_at, note, standing_decision_id. RFC 4180 quoting.
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
        /** Carrier decisions, newest first */
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
        /** One carrier decision */
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
        /** End a standing decision: the next hold of the carrier opens a review (409 when it no longer stands) */
        post: operations["revokeDecision"];
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
        /** Prometheus metrics: per-process counters and shared state read at scrape time */
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
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Error
         * @description Every 4xx and 5xx answer.
         */
        Error: {
            error: {
                /** @description What went wrong, for programs (the catalogue is in docs/api.md). Known values: invalid_request, unauthorized, forbidden, resource_missing, route_not_found, method_not_allowed, review_conflict, review_stale, block_conflict, change_conflict, decision_conflict, callback_delivered, callback_superseded, idempotency_conflict, idempotency_in_progress, payload_too_large, unsupported_media_type, headers_too_large, request_timeout, unavailable, storage_unavailable, internal_error; others may appear. */
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
            reasons: {
                [key: string]: unknown;
            }[];
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
         * Screening
         * @description One screening of one carrier for one tender (docs/decisions.md for settled_by).
         */
        Screening: {
            /** @enum {string} */
            object: "screening";
            /** @description "scr_" and 26 characters a–z, 2–7 */
            id: string;
            tender_id: string | null;
            status: "queued" | "active" | "done";
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
        } & {
            [key: string]: unknown;
        };
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
            tenders: {
                tender_id: string;
                screening_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC
                 */
                screened_at: string;
            }[];
            state: "new" | "acknowledged";
            acknowledged_by: string | null;
            acknowledged_at: string | null;
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
            role: "tms" | "desk" | "admin";
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
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
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
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
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
            header?: never;
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
                };
            };
        };
        responses: {
            /** @description One screening of one carrier for one tender (docs/decisions.md for settled_by). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description One screening of one carrier for one tender (docs/decisions.md for settled_by). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getScreening: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a screening id: "scr_" and 26 characters a–z, 2–7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One screening of one carrier for one tender (docs/decisions.md for settled_by). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
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
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReview: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveReview: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectReview: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Who a bearer token is (GET /me): what the desk shows as signed in, and whose name its decisions carry. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Caller"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDailyUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live lookups per UTC day this month. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DailyUsage"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queue, quota, rate limit, reviews, callbacks and /v1 reachability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
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
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ok, degraded (/v1 unreachable, refusing the API key or holding off after a long Retry-After, cache still served; or SQLite refusing writes, e.g. a full disk) or down */
                        status: string;
                        redis: boolean;
                        sqlite: boolean;
                        /** @description false when a write probe failed or a write was refused in the last minute (a full disk) */
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
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ok, degraded (/v1 unreachable, refusing the API key or holding off after a long Retry-After, cache still served; or SQLite refusing writes, e.g. a full disk) or down */
                        status: string;
                        redis: boolean;
                        sqlite: boolean;
                        /** @description false when a write probe failed or a write was refused in the last minute (a full disk) */
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
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addWatchEntry: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEntry"];
                };
            };
            /** @description A watched carrier, re-screened daily (docs/watchlist.md). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEntry"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWatchEntry: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEntry"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeWatchEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits) */
                dot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChanges: {
        parameters: {
            query?: {
                /** @description new, acknowledged or all (default all) */
                state?: "new" | "acknowledged" | "all";
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChange: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CarrierChange"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acknowledgeChange: {
        parameters: {
            query?: never;
            header?: never;
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
                };
            };
        };
        responses: {
            /** @description A watched carrier that screens differently now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CarrierChange"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBlocks: {
        parameters: {
            query?: {
                /** @description active (default), lifted or all */
                state?: "active" | "lifted" | "all";
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBlock: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBlock: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    liftBlock: {
        parameters: {
            query?: {
                /** @description who did it: 1 to 100 characters, not only spaces (default: the token's name) */
                by?: string;
            };
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    liftBlockByPost: {
        parameters: {
            query?: never;
            header?: never;
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
                };
            };
        };
        responses: {
            /** @description A carrier on the local do-not-use list: every screening of it is blocked without asking /v1. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocalBlock"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createScreeningBatch: {
        parameters: {
            query?: never;
            header?: never;
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
            /** @description Default Response */
            207: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "batch_result";
                        data: {
                            /** @description the position of the item in the request */
                            index: number;
                            /** @description 200 (done at once: a cache hit), 202 (queued) or the 4xx/5xx of this item */
                            status: number;
                            screening?: components["schemas"]["Screening"];
                            /** @description as in Error */
                            error?: {
                                code: string;
                                message: string;
                                param?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
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
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCallback: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryCallback: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelCallback: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelCallbacksToUrl: {
        parameters: {
            query?: never;
            header?: never;
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
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
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
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["Error"];
                };
            };
        };
    };
    listDecisions: {
        parameters: {
            query?: {
                /** @description 1 to 8 digits */
                dot_number?: string;
                /** @description standing, lapsed, revoked or all (default all) */
                state?: "standing" | "lapsed" | "revoked" | "all";
                /** @description a whole number from 1 to 100 (default 50) */
                limit?: number;
                /** @description an id from the list: the page after it (the next page: the last id of this one) */
                starting_after?: string;
                /** @description an id from the list: the page before it (the previous page: the first id of this one) */
                ending_before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDecision: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeDecision: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every 4xx and 5xx answer. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["Error"];
                };
            };
            /** @description Every 4xx and 5xx answer. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["Error"];
                };
            };
        };
    };
}
