// Generated from the server's OpenAPI document (src/http/openapi.ts, src/http/responses.ts) by
// scripts/generate-api-types.mjs. Do not edit: change the server, then run npm run generate:types.

export interface paths {
    "/api/dashboard/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List collection definitions → {data: [collection], meta: {total}}
         * @description Requires: collections:read.
         */
        get: operations["get_dashboard_collections"];
        put?: never;
        /**
         * Create a collection {name, fields, access, rule?} → 201 collection; public or gated also needs entries:read
         * @description Requires: collections:write.
         */
        post: operations["post_dashboard_collections"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/collections/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One collection definition
         * @description Requires: collections:read.
         */
        get: operations["get_dashboard_collections_by_name"];
        /**
         * Replace a definition; 409 when stored entries would violate it or a removed field holds values (?confirm=drop drops them); opening it to more readers also needs entries:read
         * @description Requires: collections:write.
         */
        put: operations["put_dashboard_collections_by_name"];
        post?: never;
        /**
         * Delete an empty, unreferenced collection → the definition as it was
         * @description Requires: collections:write.
         */
        delete: operations["delete_dashboard_collections_by_name"];
        options?: never;
        head?: never;
        /**
         * Add, rename or remove one field ({add: field} | {rename: {from, to}} | {remove: name}; ?confirm=drop to drop stored values) → {data: collection, meta: {values}}; 409 with values when a removal would drop values unconfirmed
         * @description Requires: collections:write.
         */
        patch: operations["patch_dashboard_collections_by_name"];
        trace?: never;
    };
    "/api/dashboard/collections/{name}/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List entries, drafts included: status and the delivery list's query language (docs/content.md) → {data, meta}
         * @description Requires: entries:read.
         */
        get: operations["get_dashboard_collections_by_name_entries"];
        put?: never;
        /**
         * Create an entry {_status?, …fields} → 201 entry
         * @description Requires: entries:write.
         */
        post: operations["post_dashboard_collections_by_name_entries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/collections/{name}/entries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One entry, draft or published: fields, expand (drafts included) → entry
         * @description Requires: entries:read.
         */
        get: operations["get_dashboard_collections_by_name_entries_by_id"];
        put?: never;
        post?: never;
        /**
         * Delete an entry → the entry as it was
         * @description Requires: entries:write.
         */
        delete: operations["delete_dashboard_collections_by_name_entries_by_id"];
        options?: never;
        head?: never;
        /**
         * Patch fields and/or _status → entry
         * @description Requires: entries:write.
         */
        patch: operations["patch_dashboard_collections_by_name_entries_by_id"];
        trace?: never;
    };
    "/api/dashboard/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List forms (definitions only, never submitted data) → {data, meta: {total}}
         * @description Requires: forms:read.
         */
        get: operations["get_dashboard_forms"];
        put?: never;
        /**
         * Create a form {slug, name, fields, honeypot?}
         * @description Requires: forms:write.
         */
        post: operations["post_dashboard_forms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/forms/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A form's definition (fields, honeypot)
         * @description Requires: forms:read.
         */
        get: operations["get_dashboard_forms_by_slug"];
        /**
         * Replace a form's definition; 409 when stored submissions would violate it (count only with submissions:read)
         * @description Requires: forms:write.
         */
        put: operations["put_dashboard_forms_by_slug"];
        post?: never;
        /**
         * Delete a form; one with stored submissions also needs submissions:write (they are deleted with it)
         * @description Requires: forms:write.
         */
        delete: operations["delete_dashboard_forms_by_slug"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/forms/{slug}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a form's submissions, newest first (?limit=&offset=) → {data, meta: {total, limit, offset}}
         * @description Requires: submissions:read.
         */
        get: operations["get_dashboard_forms_by_slug_submissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/forms/{slug}/submissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One submission {id, form_id, data, files, _submitted_at, _updated_at}
         * @description Requires: submissions:read.
         */
        get: operations["get_dashboard_forms_by_slug_submissions_by_id"];
        put?: never;
        post?: never;
        /**
         * Delete a submission and its uploaded files
         * @description Requires: submissions:write.
         */
        delete: operations["delete_dashboard_forms_by_slug_submissions_by_id"];
        options?: never;
        head?: never;
        /**
         * Edit submitted values {field: value | null}; null on a file field deletes the file
         * @description Requires: submissions:write.
         */
        patch: operations["patch_dashboard_forms_by_slug_submissions_by_id"];
        trace?: never;
    };
    "/api/dashboard/forms/{slug}/submissions/{id}/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download one uploaded file (attachment)
         * @description Requires: submissions:read.
         */
        get: operations["get_dashboard_forms_by_slug_submissions_by_id_files_by_fileId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/forms/{slug}/submissions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export every submission (?format=csv|json, default csv) as the attachment <slug>-submissions.csv|json; CSV formulas defused
         * @description Requires: submissions:read.
         */
        get: operations["get_dashboard_forms_by_slug_submissions_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Identity settings → {enabled, self_signup}
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_identity"];
        /**
         * Switch Identity (end-user accounts) and self sign-up on or off: {enabled?, self_signup?}
         * @description Requires: owner only.
         */
        put: operations["put_dashboard_identity"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active API keys (never their values) → {data, meta: {total}}
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_keys"];
        put?: never;
        /**
         * Create an API key {name, grants, collections?, published_only?} (collections and published_only narrow it: docs/access.md); the value is in this response only
         * @description Requires: owner only.
         */
        post: operations["post_dashboard_keys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key: immediate and permanent
         * @description Requires: owner only.
         */
        delete: operations["delete_dashboard_keys_by_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with {email, password} → {access_token, refresh_token, expires_in, role}
         * @description Requires: none.
         */
        post: operations["post_dashboard_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out: ends the presented access token and the {refresh_token} sent (or the dashboard's refresh cookie, which is cleared), if any
         * @description Requires: dashboard session.
         */
        post: operations["post_dashboard_logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in dashboard member: {id, email, role, grants, effective_grants, workspace: {slug, name, identity, hosts}, access_token_ttl_seconds}; hosts are the site hosts (public forms and the site live there); effective_grants is what the API lets the session do (owners: all 16)
         * @description Requires: dashboard session.
         */
        get: operations["get_dashboard_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List media assets, newest first (?limit=1-100, default 50; ?offset=; ?search= filename, case-insensitive)
         * @description Requires: media:read.
         */
        get: operations["get_dashboard_media"];
        put?: never;
        /**
         * Upload an asset: raw body with ?filename= and Content-Type, or multipart field `file`
         * @description Requires: media:write.
         */
        post: operations["post_dashboard_media"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One asset's record
         * @description Requires: media:read.
         */
        get: operations["get_dashboard_media_by_id"];
        put?: never;
        post?: never;
        /**
         * Delete an asset and its bytes; 409 {error, used_by} when entries use it (used_by null for a narrowed key), unless ?force=true
         * @description Requires: media:write.
         */
        delete: operations["delete_dashboard_media_by_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members and owners with role and grants → {data, meta: {total}}
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_members"];
        put?: never;
        /**
         * Create a member or owner {email, password, role, grants}
         * @description Requires: owner only.
         */
        post: operations["post_dashboard_members"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One member or owner
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_members_by_id"];
        put?: never;
        post?: never;
        /**
         * Remove a member or owner and end their sessions
         * @description Requires: owner only.
         */
        delete: operations["delete_dashboard_members_by_id"];
        options?: never;
        head?: never;
        /**
         * Change {role?, grants?}; effective at the person's next refresh
         * @description Requires: owner only.
         */
        patch: operations["patch_dashboard_members_by_id"];
        trace?: never;
    };
    "/api/dashboard/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The dashboard's Overview → {collections: [{name, published, draft}], recent: [{collection, id, label, _status, _updated_at}]}: every collection's entry counts and the 10 entries updated last
         * @description Requires: entries:read.
         */
        get: operations["get_dashboard_overview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange {refresh_token} (or, for the dashboard, its refresh cookie) for a new pair carrying the current role and grants (spec 3); a refusal's 401 names its reason
         * @description Requires: none.
         */
        post: operations["post_dashboard_refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rules → {data: [{id, name, condition, created_at, updated_at}], meta: {total}}
         * @description Requires: rules:read.
         */
        get: operations["get_dashboard_rules"];
        put?: never;
        /**
         * Create a rule {name, condition}
         * @description Requires: rules:write.
         */
        post: operations["post_dashboard_rules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One rule
         * @description Requires: rules:read.
         */
        get: operations["get_dashboard_rules_by_id"];
        /**
         * Replace a rule's name and condition; a new condition of a rule in use also needs entries:read
         * @description Requires: rules:write.
         */
        put: operations["put_dashboard_rules_by_id"];
        post?: never;
        /**
         * Delete a rule; 409 naming the collections still gated by it
         * @description Requires: rules:write.
         */
        delete: operations["delete_dashboard_rules_by_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/sdk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Generated TypeScript types + typed delivery client (application/typescript)
         * @description Requires: collections:read.
         */
        get: operations["get_dashboard_sdk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/site/deploys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List site deploys, newest first, the live one with live: true
         * @description Requires: sites:read.
         */
        get: operations["get_dashboard_site_deploys"];
        put?: never;
        /**
         * Deploy a tar.gz of a built site and make it live (atomic switch)
         * @description Requires: sites:write.
         */
        post: operations["post_dashboard_site_deploys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/site/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the previous deploy live again, or the one named by {deploy_id}
         * @description Requires: sites:write.
         */
        post: operations["post_dashboard_site_rollback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List end users (?limit=&offset=) → {data: [{id, email, attributes, active, created_at, updated_at}], meta: {total, limit, offset}}
         * @description Requires: users:read.
         */
        get: operations["get_dashboard_users"];
        put?: never;
        /**
         * Create an end user {email, password, attributes?, active?, email_verified?} (unverified unless email_verified: true)
         * @description Requires: users:write.
         */
        post: operations["post_dashboard_users"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One end user
         * @description Requires: users:read.
         */
        get: operations["get_dashboard_users_by_id"];
        put?: never;
        post?: never;
        /**
         * Delete an end user and their sessions
         * @description Requires: users:write.
         */
        delete: operations["delete_dashboard_users_by_id"];
        options?: never;
        head?: never;
        /**
         * Change an end user {email?, password?, attributes?, active?, email_verified?}; a new email is unverified unless email_verified: true; active:false or a new password ends their sessions
         * @description Requires: users:write.
         */
        patch: operations["patch_dashboard_users_by_id"];
        trace?: never;
    };
    "/api/dashboard/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks → {data: [webhook], meta: {total}}
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_webhooks"];
        put?: never;
        /**
         * Create a webhook (secret generated, never returned here)
         * @description Requires: owner only.
         */
        post: operations["post_dashboard_webhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_webhooks_by_id"];
        /**
         * Update a webhook (custom-header semantics of spec 4.3)
         * @description Requires: owner only.
         */
        put: operations["put_dashboard_webhooks_by_id"];
        post?: never;
        /**
         * Delete a webhook
         * @description Requires: owner only.
         */
        delete: operations["delete_dashboard_webhooks_by_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent deliveries of a webhook with log_deliveries on (last 100 attempts) → {data, meta: {total}}
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_webhooks_by_id_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a logged delivery again (same body, new timestamp, current secret; retried and logged)
         * @description Requires: owner only.
         */
        post: operations["post_dashboard_webhooks_by_id_deliveries_by_delivery_id_redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New secret, returned once; the old one still signs webhook-signature for window_seconds (default 86400)
         * @description Requires: owner only.
         */
        post: operations["post_dashboard_webhooks_by_id_rotate_secret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/webhooks/{id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhook settings: active, debounce, and the secret
         * @description Requires: owner only.
         */
        get: operations["get_dashboard_webhooks_by_id_settings"];
        /**
         * Change active, debounce_ms (≤ 3,600,000), debounce_scope (entry | webhook), log_deliveries, standard_webhooks
         * @description Requires: owner only.
         */
        put: operations["put_dashboard_webhooks_by_id_settings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one signed sample delivery through the real delivery path
         * @description Requires: owner only.
         */
        post: operations["post_dashboard_webhooks_by_id_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 405: no server-initiated stream (stateless)
         * @description Requires: valid API key (grant per tool).
         */
        get: operations["get_mcp"];
        put?: never;
        /**
         * MCP streamable HTTP (stateless, JSON responses); each tool checks its grant (docs/mcp.md)
         * @description Requires: valid API key (grant per tool).
         */
        post: operations["post_mcp"];
        /**
         * 405: no session to end (stateless)
         * @description Requires: valid API key (grant per tool).
         */
        delete: operations["delete_mcp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This workspace's OpenAPI 3.1 document (routes, bodies, per-collection entry schemas)
         * @description Requires: none; private and gated collections' schemas only with a key or dashboard session holding collections:read.
         */
        get: operations["get_openapi_json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{collection}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List published entries: limit, offset or after, sort, fields, expand, filter[field][op] → {data, meta: {total, limit, offset, next}}
         * @description Requires: public: none (any credential ignored); private: API key with entries:read; gated: that, or an account session satisfying the rule; never a dashboard session.
         */
        get: operations["get_v1_by_collection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{collection}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One published entry: fields, expand → {data}
         * @description Requires: public: none (any credential ignored); private: API key with entries:read; gated: that, or an account session satisfying the rule; never a dashboard session.
         */
        get: operations["get_v1_by_collection_by_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accounts/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in {email, password} → {token, expires_at}: an account session of 30 days
         * @description Requires: none.
         */
        post: operations["post_v1_accounts_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accounts/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the presented account session
         * @description Requires: account session.
         */
        post: operations["post_v1_accounts_logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accounts/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in end user {id, email, email_verified, attributes, created_at}
         * @description Requires: account session.
         */
        get: operations["get_v1_accounts_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accounts/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an end-user account {email, password} (Identity with self sign-up on); mails a verification token
         * @description Requires: none.
         */
        post: operations["post_v1_accounts_signup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accounts/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify the account's email with the mailed one-time token {token} (24 h, single use)
         * @description Requires: none.
         */
        post: operations["post_v1_accounts_verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accounts/verify/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a new verification token to the signed-in account's email (earlier ones stop working) → 202
         * @description Requires: account session.
         */
        post: operations["post_v1_accounts_verify_resend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/forms/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A form's public definition {id, slug, name, fields, honeypot}
         * @description Requires: none.
         */
        get: operations["get_v1_forms_by_slug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/forms/{slug}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a form from a browser (JSON, urlencoded or multipart) → 201 {id}; never send a key
         * @description Requires: none.
         */
        post: operations["post_v1_forms_by_slug_submit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An asset's bytes (ETag, Range, immutable caching, nosniff; no CORS)
         * @description Requires: none.
         */
        get: operations["get_v1_media_by_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/{id}/meta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An asset's metadata: {id, filename, content_type, size, created_at, width?, height?}
         * @description Requires: none.
         */
        get: operations["get_v1_media_by_id_meta"];
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
        ApiKey: {
            /** @description The collections its collections:* and entries:* grants apply to; null: every collection */
            collections: string[] | null;
            /** Format: date-time */
            created_at: string;
            grants: components["schemas"]["Grant"][];
            id: string;
            last_used_at: string | null;
            name: string;
            /** @description Reads only published entries, on every surface */
            published_only: boolean;
        };
        Collection: {
            /** @enum {string} */
            access: "public" | "private" | "gated";
            /** Format: date-time */
            created_at: string;
            fields: components["schemas"]["CollectionField"][];
            id: string;
            name: string;
            /** @description The rule id of a gated collection */
            rule: string | null;
            /** Format: date-time */
            updated_at: string;
        };
        CollectionField: {
            collection?: string;
            name: string;
            required?: boolean;
            /** @enum {string} */
            type: "string" | "text" | "number" | "boolean" | "datetime" | "json" | "media" | "relation" | "relations";
        };
        CreatedApiKey: {
            /** @description The collections its collections:* and entries:* grants apply to; null: every collection */
            collections: string[] | null;
            /** Format: date-time */
            created_at: string;
            grants: components["schemas"]["Grant"][];
            id: string;
            last_used_at: string | null;
            name: string;
            /** @description Reads only published entries, on every surface */
            published_only: boolean;
            /** @description The key itself, shown this once */
            value: string;
        };
        DeliveryAttempt: {
            attempt: number;
            body: string;
            custom_header_names: string[];
            delivery_id: string;
            duration_ms: number;
            error: string | null;
            event: string;
            format: string;
            id: string;
            ok: boolean;
            redelivery: boolean;
            /** @description As sent, custom header values left out */
            request_headers: {
                [key: string]: string;
            };
            response_status: number | null;
            /** Format: date-time */
            sent_at: string;
        };
        Deploy: {
            /** Format: date-time */
            created_at: string;
            file_count: number;
            id: string;
            live: boolean;
            size: number;
        };
        EndUser: {
            active: boolean;
            attributes: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            email: string;
            email_verified: boolean;
            id: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description An entry of any collection: the system fields and the collection's own (typed per collection in Entry_<collection>) */
        Entry: {
            /** Format: date-time */
            _created_at: string;
            _created_by: string;
            /** @description Set when first published */
            _published_at: string | null;
            /** @enum {string} */
            _status: "draft" | "published";
            /** Format: date-time */
            _updated_at: string;
            /** Format: uuid */
            id: string;
        } & {
            [key: string]: unknown;
        };
        /** @description Every error: `error` is the message; some carry more keys a program can react to (`grant`, `field`, `retry_after`, …). */
        Error: {
            error: string;
        } & {
            [key: string]: unknown;
        };
        FieldChange: {
            add: {
                collection?: string;
                name: string;
                required?: boolean;
                /** @enum {string} */
                type: "string" | "text" | "number" | "boolean" | "datetime" | "json" | "media" | "relation" | "relations";
            };
        } | {
            rename: {
                from: string;
                to: string;
            };
        } | {
            remove: string;
        };
        FieldChangeResult: {
            data: components["schemas"]["Collection"];
            meta: {
                values: number;
            };
        };
        Form: {
            /** Format: date-time */
            created_at: string;
            fields: components["schemas"]["FormField"][];
            honeypot: string;
            id: string;
            name: string;
            slug: string;
            /** Format: date-time */
            updated_at: string;
        };
        FormField: {
            label?: string;
            max_length?: number;
            name: string;
            options?: string[];
            required?: boolean;
            /** @enum {string} */
            type: "string" | "text" | "email" | "url" | "number" | "boolean" | "date" | "select" | "file";
        };
        /**
         * @description <resource>:<action> (docs/access.md)
         * @enum {string}
         */
        Grant: "collections:read" | "collections:write" | "entries:read" | "entries:write" | "media:read" | "media:write" | "forms:read" | "forms:write" | "submissions:read" | "submissions:write" | "users:read" | "users:write" | "rules:read" | "rules:write" | "sites:read" | "sites:write";
        IdentitySettings: {
            enabled: boolean;
            self_signup: boolean;
        };
        LiveDeploy: {
            /** Format: date-time */
            created_at: string;
            file_count: number;
            id: string;
            live: boolean;
            previous_deploy_id: string | null;
            size: number;
        };
        Me: {
            /** @description How long a dashboard access token lives: a role or grant change reaches a signed-in person within this, at their next token refresh (spec 3) */
            access_token_ttl_seconds: number;
            /** @description What the API lets this session do: every grant for an owner, else the stored grants plus their implications (spec 5.4.2) */
            effective_grants: components["schemas"]["Grant"][];
            email: string;
            /** @description The grants as stored on the account */
            grants: components["schemas"]["Grant"][];
            id: string;
            /** @enum {string} */
            role: "owner" | "member";
            workspace: {
                /** @description The site hosts, sorted: where the site and the public form endpoints answer (the dashboard host is not among them) */
                hosts: string[];
                identity: boolean;
                name: string;
                slug: string;
            };
        };
        Media: {
            content_type: string;
            /** Format: date-time */
            created_at: string;
            filename: string;
            height?: number;
            id: string;
            sha256: string;
            size: number;
            url: string;
            /** @description Images whose size is known */
            width?: number;
        };
        MediaMeta: {
            content_type: string;
            /** Format: date-time */
            created_at: string;
            filename: string;
            height?: number;
            id: string;
            size: number;
            /** @description Images whose size is known */
            width?: number;
        };
        Member: {
            /** Format: date-time */
            created_at: string;
            email: string;
            grants: components["schemas"]["Grant"][];
            id: string;
            /** @enum {string} */
            role: "owner" | "member";
            /** Format: date-time */
            updated_at: string;
        };
        Overview: {
            /** @description Every collection, by name */
            collections: {
                draft: number;
                name: string;
                published: number;
            }[];
            /** @description The entries updated last across the collections, newest first */
            recent: {
                /** @enum {string} */
                _status: "draft" | "published";
                /** Format: date-time */
                _updated_at: string;
                collection: string;
                id: string;
                /** @description The entry's first string field, shortened; null when it has none */
                label: string | null;
            }[];
        };
        PageMeta: {
            limit: number;
            offset: number;
            total: number;
        };
        Redelivery: {
            delivery_id: string;
            redelivery_of: string;
        };
        RemovedMember: {
            /** @constant */
            deleted: true;
            id: string;
        };
        RevokedApiKey: {
            id: string;
            /** @constant */
            revoked: true;
        };
        RotatedSecret: {
            /** @description Until when the old secret still signs webhook-signature */
            previous_secret_until: string | null;
            secret: string;
        };
        Rule: {
            /** @description The condition (docs/identity.md) */
            condition: unknown;
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** Format: date-time */
            updated_at: string;
        };
        Submission: {
            /** Format: date-time */
            _submitted_at: string;
            /** Format: date-time */
            _updated_at: string;
            data: {
                [key: string]: unknown;
            };
            files: {
                content_type: string;
                field: string;
                filename: string;
                id: string;
                size: number;
            }[];
            form_id: string;
            id: string;
        };
        TestDelivery: {
            duration_ms: number;
            error?: string;
            ok: boolean;
            signature?: string;
            status: number | null;
        };
        TokenPair: {
            access_token: string;
            /** @description Seconds until the access token expires */
            expires_in: number;
            /** @description Absent only in the dashboard's cookie form (X-Dashboard-Session: cookie), where it is set as an HttpOnly cookie instead */
            refresh_token?: string;
            /** @enum {string} */
            role: "owner" | "member";
        };
        Webhook: {
            active: boolean;
            created_at: string;
            events: ("content.created" | "content.updated" | "content.deleted" | "content.published" | "content.unpublished" | "form.submitted")[];
            /** @enum {string} */
            format: "service" | "code_host_repository_dispatch";
            header_names: string[];
            id: string;
            /** @constant */
            log_deliveries?: true;
            /** @constant */
            standard_webhooks?: true;
            url: string;
        };
        WebhookSettings: {
            active: boolean;
            debounce_ms: number;
            /** @enum {string} */
            debounce_scope: "entry" | "webhook";
            /** @constant */
            log_deliveries?: true;
            /** @description End of an open rotation window, while the previous secret still signs */
            previous_secret_until?: string;
            secret: string;
            /** @constant */
            standard_webhooks?: true;
        };
        WholeListMeta: {
            total: number;
        };
    };
    responses: {
        /** @description An error (docs/api-conventions.md) */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get_dashboard_collections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Collection definitions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Collection"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_collections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default private
                     * @enum {string}
                     */
                    access?: "public" | "private" | "gated";
                    /** @default [] */
                    fields?: {
                        collection?: string;
                        name: string;
                        required?: boolean;
                        /** @enum {string} */
                        type: "string" | "text" | "number" | "boolean" | "datetime" | "json" | "media" | "relation" | "relations";
                    }[];
                    name: string;
                    rule?: string | null;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The collection */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
        };
    };
    get_dashboard_collections_by_name: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The collection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
        };
    };
    put_dashboard_collections_by_name: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default private
                     * @enum {string}
                     */
                    access?: "public" | "private" | "gated";
                    /** @default [] */
                    fields?: {
                        collection?: string;
                        name: string;
                        required?: boolean;
                        /** @enum {string} */
                        type: "string" | "text" | "number" | "boolean" | "datetime" | "json" | "media" | "relation" | "relations";
                    }[];
                    name: string;
                    rule?: string | null;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The collection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
        };
    };
    delete_dashboard_collections_by_name: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The collection as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
        };
    };
    patch_dashboard_collections_by_name: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FieldChange"];
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The collection and how many stored values the change dropped */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldChangeResult"];
                };
            };
        };
    };
    get_dashboard_collections_by_name_entries: {
        parameters: {
            query?: {
                /** @description Opaque cursor from a previous page's meta.next: the page starts after it (keyset). Not with offset. */
                after?: string;
                /** @description Comma-separated relation/relations fields whose ids become the related entries (one level). */
                expand?: string;
                /** @description Comma-separated user fields to return; system fields always come. */
                fields?: string;
                /** @description filter[field]=value (eq) or filter[field][op]=value, op one of eq, ne, in, nin, lt, lte, gt, gte, contains, null; at most 20 filters, 3 of them contains, each of at most 100 characters */
                filter?: {
                    [key: string]: string;
                };
                /** @description Page size, 0-100 (default 20); 0 answers only meta.total. Above 100: 400. */
                limit?: string;
                /** @description Entries to skip (0-999999999, default 0). Not with after. */
                offset?: string;
                /** @description Up to 5 comma-separated keys, field or -field (descending): user fields (not json/relations), id, _created_at, _updated_at, _published_at. Default -_created_at; ties by id. */
                sort?: string;
                /** @description Dashboard and MCP only: draft or published. */
                status?: "draft" | "published";
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Entries, drafts included (schemas Entry_<collection>) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Entry"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_collections_by_name_entries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The entry */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Entry"];
                };
            };
        };
    };
    get_dashboard_collections_by_name_entries_by_id: {
        parameters: {
            query?: {
                /** @description Comma-separated relation/relations fields whose ids become the related entries (one level). */
                expand?: string;
                /** @description Comma-separated user fields to return; system fields always come. */
                fields?: string;
            };
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Entry"];
                };
            };
        };
    };
    delete_dashboard_collections_by_name_entries_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The entry as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Entry"];
                };
            };
        };
    };
    patch_dashboard_collections_by_name_entries_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Entry"];
                };
            };
        };
    };
    get_dashboard_forms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Form definitions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Form"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_forms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    fields?: {
                        label?: string;
                        max_length?: number;
                        name: string;
                        options?: string[];
                        required?: boolean;
                        /** @enum {string} */
                        type: "string" | "text" | "email" | "url" | "number" | "boolean" | "date" | "select" | "file";
                    }[];
                    /** @default _gotcha */
                    honeypot?: string;
                    name: string;
                    slug: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The form */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Form"];
                };
            };
        };
    };
    get_dashboard_forms_by_slug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The form */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Form"];
                };
            };
        };
    };
    put_dashboard_forms_by_slug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    fields?: {
                        label?: string;
                        max_length?: number;
                        name: string;
                        options?: string[];
                        required?: boolean;
                        /** @enum {string} */
                        type: "string" | "text" | "email" | "url" | "number" | "boolean" | "date" | "select" | "file";
                    }[];
                    /** @default _gotcha */
                    honeypot?: string;
                    name: string;
                    slug: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The form */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Form"];
                };
            };
        };
    };
    delete_dashboard_forms_by_slug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_dashboard_forms_by_slug_submissions: {
        parameters: {
            query?: {
                /** @description Page size, an integer from 1 to 200 (default 50); above 200: 400. */
                limit?: string;
                /** @description Records to skip, an integer from 0 to 999999999 (default 0). */
                offset?: string;
            };
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Submissions, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Submission"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
        };
    };
    get_dashboard_forms_by_slug_submissions_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The submission */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Submission"];
                };
            };
        };
    };
    delete_dashboard_forms_by_slug_submissions_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    patch_dashboard_forms_by_slug_submissions_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The submission */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Submission"];
                };
            };
        };
    };
    get_dashboard_forms_by_slug_submissions_by_id_files_by_fileId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileId: string;
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The file, as an attachment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
        };
    };
    get_dashboard_forms_by_slug_submissions_export: {
        parameters: {
            query?: {
                /** @description csv (RFC 4180, one column per field, cells a spreadsheet would run defused) or json ({data, meta: {total}}); default csv */
                format?: string;
            };
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The export, as an attachment (JSON when format=json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
        };
    };
    get_dashboard_identity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentitySettings"];
                };
            };
        };
    };
    put_dashboard_identity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled?: boolean;
                    self_signup?: boolean;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentitySettings"];
                };
            };
        };
    };
    get_dashboard_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description API keys (never their values) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The collections the key's collections:* and entries:* grants apply to: null (every collection) or an array of collection names (default null) */
                    collections?: string[] | null;
                    /** @description Grant strings, <resource>:<action> with resource one of collections, entries, media, forms, submissions, users, rules, sites and action read or write */
                    grants?: string[];
                    name: string;
                    /** @description The key reads only published entries, on every surface (default false) */
                    published_only?: boolean;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The key, with its value (shown this once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
        };
    };
    delete_dashboard_keys_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The revoked key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedApiKey"];
                };
            };
        };
    };
    post_dashboard_login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The token pair */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
        };
    };
    post_dashboard_logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The dr_ token of the last pair; omitted in the cookie form (x-dashboard-session: cookie) */
                    refresh_token?: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_dashboard_me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The member, the stored and the effective grants, the workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
        };
    };
    get_dashboard_media: {
        parameters: {
            query?: {
                /** @description Page size, an integer from 1 to 100 (default 50); above 100: 400. */
                limit?: string;
                /** @description Records to skip, an integer from 0 to 999999999 (default 0). */
                offset?: string;
                /** @description Keeps assets whose filename holds this text, ignoring case (at most 100 characters). */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Media assets, newest first (limit default 50, max 100) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Media"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_media: {
        parameters: {
            query?: {
                /** @description The file name of a raw-body upload (not with multipart). */
                filename?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": unknown;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The asset's metadata */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Media"];
                };
            };
        };
    };
    get_dashboard_media_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The asset's record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Media"];
                };
            };
        };
    };
    delete_dashboard_media_by_id: {
        parameters: {
            query?: {
                /** @description `true` (or `1`) deletes an asset that entries use; they keep its id, which no longer resolves. */
                force?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_dashboard_members: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Members and owners with role and grants */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_members: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description Grant strings, <resource>:<action> with resource one of collections, entries, media, forms, submissions, users, rules, sites and action read or write */
                    grants?: string[];
                    /** @description 8 to 1024 characters; never an API key or token */
                    password: string;
                    /** @enum {string} */
                    role?: "owner" | "member";
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The member */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
        };
    };
    get_dashboard_members_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
        };
    };
    delete_dashboard_members_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The removed member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemovedMember"];
                };
            };
        };
    };
    patch_dashboard_members_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Grant strings, <resource>:<action> with resource one of collections, entries, media, forms, submissions, users, rules, sites and action read or write */
                    grants?: string[];
                    /** @enum {string} */
                    role?: "owner" | "member";
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
        };
    };
    get_dashboard_overview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Counts per collection and the recent changes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
        };
    };
    post_dashboard_refresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The dr_ token of the last pair; omitted in the cookie form (x-dashboard-session: cookie) */
                    refresh_token: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description A new token pair */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
        };
    };
    get_dashboard_rules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Rules */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Rule"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_rules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description {signed_in: true}, {account: {field, eq | in}}, {all: [condition, …]} or {any: [condition, …]} (docs/identity.md) */
                    condition?: Record<string, unknown>;
                    name: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The rule */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
        };
    };
    get_dashboard_rules_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The rule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
        };
    };
    put_dashboard_rules_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description {signed_in: true}, {account: {field, eq | in}}, {all: [condition, …]} or {any: [condition, …]} (docs/identity.md) */
                    condition?: Record<string, unknown>;
                    name: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The rule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
        };
    };
    delete_dashboard_rules_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_dashboard_sdk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description One TypeScript file: an interface per collection and a typed delivery client */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/typescript": unknown;
                };
            };
        };
    };
    get_dashboard_site_deploys: {
        parameters: {
            query?: {
                /** @description Page size, an integer from 1 to 100 (default 50); above 100: 400. */
                limit?: string;
                /** @description Records to skip, an integer from 0 to 999999999 (default 0). */
                offset?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Deploys, newest first; the live one has live: true */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deploy"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_site_deploys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/gzip": unknown;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The deploy, now live */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiveDeploy"];
                };
            };
        };
    };
    post_dashboard_site_rollback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The deploy to make live; default the previous one */
                    deploy_id?: string | null;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The deploy now live */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiveDeploy"];
                };
            };
        };
    };
    get_dashboard_users: {
        parameters: {
            query?: {
                /** @description Page size, an integer from 1 to 200 (default 50); above 200: 400. */
                limit?: string;
                /** @description Records to skip, an integer from 0 to 999999999 (default 0). */
                offset?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description End users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EndUser"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_users: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    /** @description Flat: each value a string, number, boolean, null or a list of them; at most 50; not email */
                    attributes?: {
                        [key: string]: unknown;
                    };
                    /** Format: email */
                    email: string;
                    email_verified?: boolean;
                    /** @description 8 to 1024 characters; never an API key or token */
                    password: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The end user */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndUser"];
                };
            };
        };
    };
    get_dashboard_users_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The end user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndUser"];
                };
            };
        };
    };
    delete_dashboard_users_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    patch_dashboard_users_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    /** @description Flat: each value a string, number, boolean, null or a list of them; at most 50; not email */
                    attributes?: {
                        [key: string]: unknown;
                    };
                    /** Format: email */
                    email?: string;
                    email_verified?: boolean;
                    /** @description 8 to 1024 characters; never an API key or token */
                    password?: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The end user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndUser"];
                };
            };
        };
    };
    get_dashboard_webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Webhooks, oldest first; never secrets or header values */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    events: ("content.created" | "content.updated" | "content.deleted" | "content.published" | "content.unpublished" | "form.submitted")[];
                    format?: ("service" | "code_host_repository_dispatch") | null;
                    /** @description Header name to value; never returned. On PUT a blank value keeps the stored one, null or {} clears all (spec 4.3) */
                    headers?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description Keep a delivery log (opt-in, beyond the spec) */
                    log_deliveries?: boolean;
                    /** @description Also send the Standard Webhooks headers (opt-in, beyond the spec) */
                    standard_webhooks?: boolean;
                    url: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The webhook; no secret, no header values */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
        };
    };
    get_dashboard_webhooks_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
        };
    };
    put_dashboard_webhooks_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    events?: ("content.created" | "content.updated" | "content.deleted" | "content.published" | "content.unpublished" | "form.submitted")[];
                    format?: ("service" | "code_host_repository_dispatch") | null;
                    /** @description Header name to value; never returned. On PUT a blank value keeps the stored one, null or {} clears all (spec 4.3) */
                    headers?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description Keep a delivery log (opt-in, beyond the spec) */
                    log_deliveries?: boolean;
                    /** @description Also send the Standard Webhooks headers (opt-in, beyond the spec) */
                    standard_webhooks?: boolean;
                    url?: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
        };
    };
    delete_dashboard_webhooks_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_dashboard_webhooks_by_id_deliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Logged attempts, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DeliveryAttempt"][];
                        meta: components["schemas"]["WholeListMeta"];
                    };
                };
            };
        };
    };
    post_dashboard_webhooks_by_id_deliveries_by_delivery_id_redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The new delivery's id and the logged attempt it repeats */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
        };
    };
    post_dashboard_webhooks_by_id_rotate_secret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The new secret, shown this once here */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
        };
    };
    get_dashboard_webhooks_by_id_settings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The settings, the one place the secret appears */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSettings"];
                };
            };
        };
    };
    put_dashboard_webhooks_by_id_settings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    debounce_ms?: number | null;
                    debounce_scope?: ("entry" | "webhook") | null;
                    /** @description Keep a delivery log (opt-in, beyond the spec) */
                    log_deliveries?: boolean;
                    /** @description Also send the Standard Webhooks headers (opt-in, beyond the spec) */
                    standard_webhooks?: boolean;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The settings as stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSettings"];
                };
            };
        };
    };
    post_dashboard_webhooks_by_id_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    event?: "content.created" | "content.updated" | "content.deleted" | "content.published" | "content.unpublished" | "form.submitted";
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The delivery's outcome */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestDelivery"];
                };
            };
        };
    };
    get_mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    post_mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The JSON-RPC answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    delete_mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_openapi_json: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description An OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    get_v1_by_collection: {
        parameters: {
            query?: {
                /** @description Opaque cursor from a previous page's meta.next: the page starts after it (keyset). Not with offset. */
                after?: string;
                /** @description Comma-separated relation/relations fields whose ids become the related entries (one level). */
                expand?: string;
                /** @description Comma-separated user fields to return; system fields always come. */
                fields?: string;
                /** @description filter[field]=value (eq) or filter[field][op]=value, op one of eq, ne, in, nin, lt, lte, gt, gte, contains, null; at most 20 filters, 3 of them contains, each of at most 100 characters */
                filter?: {
                    [key: string]: string;
                };
                /** @description Page size, 0-100 (default 20); 0 answers only meta.total. Above 100: 400. */
                limit?: string;
                /** @description Entries to skip (0-999999999, default 0). Not with after. */
                offset?: string;
                /** @description Up to 5 comma-separated keys, field or -field (descending): user fields (not json/relations), id, _created_at, _updated_at, _published_at. Default -_created_at; ties by id. */
                sort?: string;
            };
            header?: never;
            path: {
                collection: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description Published entries; each collection's own path documents its entry schema */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: Record<string, unknown>[];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
        };
    };
    get_v1_by_collection_by_id: {
        parameters: {
            query?: {
                /** @description Comma-separated relation/relations fields whose ids become the related entries (one level). */
                expand?: string;
                /** @description Comma-separated user fields to return; system fields always come. */
                fields?: string;
            };
            header?: never;
            path: {
                collection: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description {data: entry} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    post_v1_accounts_login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description {token, expires_at}: the as_ account session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    post_v1_accounts_logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_v1_accounts_me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description {id, email, email_verified, attributes, created_at} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    post_v1_accounts_signup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description 8 to 1024 characters; never an API key or token */
                    password: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The account {id, email, email_verified, attributes, created_at} */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    post_v1_accounts_verify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The mailed ev_ token (24 h, single use) */
                    token: string;
                };
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The verified account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    post_v1_accounts_verify_resend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description A new token was mailed */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    get_v1_forms_by_slug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description {id, slug, name, fields, honeypot} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    post_v1_forms_by_slug_submit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description {id} */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
        };
    };
    get_v1_media_by_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The bytes, with the asset's Content-Type; 206 for a Range request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
        };
    };
    get_v1_media_by_id_meta: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            "4XX": components["responses"]["Error"];
            "5XX": components["responses"]["Error"];
            /** @description The asset's public metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaMeta"];
                };
            };
        };
    };
}
