import { sql } from 'kysely';
function withId(table, dialect) {
    if (dialect === 'postgres')
        return table.addColumn('id', 'serial', (c) => c.primaryKey());
    return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
const str = (n) => sql `varchar(${sql.raw(String(n))})`;
const dflt = (v) => (c) => c.notNull().defaultTo(v);
const req = (c) => c.notNull();
export async function up(db, dialect) {
    await withId(db.schema.createTable('users'), dialect)
        .addColumn('username', str(64), req)
        .addColumn('password', str(255), req)
        .addColumn('display_name', str(64), dflt(''))
        .addColumn('role', 'integer', dflt(1))
        .addColumn('status', 'integer', dflt(1))
        .addColumn('email', str(255), dflt(''))
        .addColumn('github_id', str(128), dflt(''))
        .addColumn('wechat_id', str(128), dflt(''))
        .addColumn('telegram_id', str(128), dflt(''))
        .addColumn('oidc_id', str(128), dflt(''))
        .addColumn('access_token', str(64))
        .addColumn('quota', 'bigint', dflt(0))
        .addColumn('used_quota', 'bigint', dflt(0))
        .addColumn('request_count', 'bigint', dflt(0))
        .addColumn('group', str(64), dflt('default'))
        .addColumn('aff_code', str(32), req)
        .addColumn('aff_count', 'integer', dflt(0))
        .addColumn('aff_quota', 'bigint', dflt(0))
        .addColumn('aff_history_quota', 'bigint', dflt(0))
        .addColumn('inviter_id', 'integer', dflt(0))
        .addColumn('setting', 'text', req)
        .addColumn('created_at', 'bigint', dflt(0))
        .addColumn('deleted_at', 'bigint')
        .execute();
    await db.schema.createIndex('users_username_uq').on('users').column('username').unique().execute();
    await db.schema.createIndex('users_access_token_uq').on('users').column('access_token').unique().execute();
    await db.schema.createIndex('users_aff_code_uq').on('users').column('aff_code').unique().execute();
    await db.schema.createIndex('users_email_idx').on('users').column('email').execute();
    await db.schema.createIndex('users_group_idx').on('users').column('group').execute();
    await db.schema.createIndex('users_github_id_idx').on('users').column('github_id').execute();
    await db.schema.createIndex('users_wechat_id_idx').on('users').column('wechat_id').execute();
    await db.schema.createIndex('users_telegram_id_idx').on('users').column('telegram_id').execute();
    await db.schema.createIndex('users_inviter_id_idx').on('users').column('inviter_id').execute();
    await withId(db.schema.createTable('tokens'), dialect)
        .addColumn('user_id', 'integer', req)
        .addColumn('key', sql `char(48)`, req)
        .addColumn('status', 'integer', dflt(1))
        .addColumn('name', str(64), dflt(''))
        .addColumn('created_time', 'bigint', dflt(0))
        .addColumn('accessed_time', 'bigint', dflt(0))
        .addColumn('expired_time', 'bigint', dflt(-1))
        .addColumn('remain_quota', 'bigint', dflt(0))
        .addColumn('unlimited_quota', 'integer', dflt(0))
        .addColumn('model_limits_enabled', 'integer', dflt(0))
        .addColumn('model_limits', 'text', req)
        .addColumn('allow_ips', 'text', req)
        .addColumn('used_quota', 'bigint', dflt(0))
        .addColumn('group', str(64), dflt(''))
        .addColumn('deleted_at', 'bigint')
        .execute();
    await db.schema.createIndex('tokens_key_uq').on('tokens').column('key').unique().execute();
    await db.schema.createIndex('tokens_user_id_idx').on('tokens').columns(['user_id', 'id']).execute();
    await withId(db.schema.createTable('channels'), dialect)
        .addColumn('type', 'integer', dflt(0))
        .addColumn('key', 'text', req)
        .addColumn('openai_organization', str(255), dflt(''))
        .addColumn('test_model', str(255), dflt(''))
        .addColumn('status', 'integer', dflt(1))
        .addColumn('name', str(255), dflt(''))
        .addColumn('weight', 'integer', dflt(0))
        .addColumn('created_time', 'bigint', dflt(0))
        .addColumn('test_time', 'bigint', dflt(0))
        .addColumn('response_time', 'integer', dflt(0))
        .addColumn('base_url', str(512), dflt(''))
        .addColumn('other', 'text', req)
        .addColumn('balance', 'double precision', dflt(0))
        .addColumn('balance_updated_time', 'bigint', dflt(0))
        .addColumn('models', 'text', req)
        .addColumn('group', str(255), dflt('default'))
        .addColumn('used_quota', 'bigint', dflt(0))
        .addColumn('model_mapping', 'text', req)
        .addColumn('status_code_mapping', str(1024), dflt(''))
        .addColumn('priority', 'bigint', dflt(0))
        .addColumn('auto_ban', 'integer', dflt(1))
        .addColumn('other_info', 'text', req)
        .addColumn('tag', str(255), dflt(''))
        .addColumn('setting', 'text', req)
        .addColumn('param_override', 'text', req)
        .addColumn('max_input_tokens', 'integer', dflt(0))
        .execute();
    await db.schema.createIndex('channels_name_idx').on('channels').column('name').execute();
    await db.schema.createIndex('channels_tag_idx').on('channels').column('tag').execute();
    await db.schema
        .createTable('abilities')
        .addColumn('group', str(64), req)
        .addColumn('model', str(255), req)
        .addColumn('channel_id', 'integer', req)
        .addColumn('enabled', 'integer', dflt(1))
        .addColumn('priority', 'bigint', dflt(0))
        .addColumn('weight', 'integer', dflt(0))
        .addColumn('tag', str(255), dflt(''))
        .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
        .execute();
    await db.schema.createIndex('abilities_channel_id_idx').on('abilities').column('channel_id').execute();
    await withId(db.schema.createTable('redemptions'), dialect)
        .addColumn('user_id', 'integer', dflt(0))
        .addColumn('key', sql `char(32)`, req)
        .addColumn('status', 'integer', dflt(1))
        .addColumn('name', str(64), dflt(''))
        .addColumn('quota', 'bigint', dflt(100))
        .addColumn('created_time', 'bigint', dflt(0))
        .addColumn('redeemed_time', 'bigint', dflt(0))
        .addColumn('used_user_id', 'integer', dflt(0))
        .addColumn('deleted_at', 'bigint')
        .execute();
    await db.schema.createIndex('redemptions_key_uq').on('redemptions').column('key').unique().execute();
    await db.schema.createIndex('redemptions_name_idx').on('redemptions').column('name').execute();
    await withId(db.schema.createTable('logs'), dialect)
        .addColumn('user_id', 'integer', dflt(0))
        .addColumn('created_at', 'bigint', dflt(0))
        .addColumn('type', 'integer', dflt(0))
        .addColumn('content', 'text', req)
        .addColumn('username', str(64), dflt(''))
        .addColumn('token_name', str(64), dflt(''))
        .addColumn('model_name', str(255), dflt(''))
        .addColumn('quota', 'bigint', dflt(0))
        .addColumn('prompt_tokens', 'integer', dflt(0))
        .addColumn('completion_tokens', 'integer', dflt(0))
        .addColumn('use_time', 'integer', dflt(0))
        .addColumn('is_stream', 'integer', dflt(0))
        .addColumn('channel_id', 'integer', dflt(0))
        .addColumn('token_id', 'integer', dflt(0))
        .addColumn('group', str(64), dflt(''))
        .addColumn('ip', str(64), dflt(''))
        .addColumn('other', 'text', req)
        .execute();
    await db.schema.createIndex('logs_created_at_idx').on('logs').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('logs_type_created_idx').on('logs').columns(['type', 'created_at']).execute();
    await db.schema.createIndex('logs_user_created_idx').on('logs').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('logs_username_created_idx').on('logs').columns(['username', 'created_at']).execute();
    await db.schema.createIndex('logs_model_created_idx').on('logs').columns(['model_name', 'created_at']).execute();
    await db.schema.createIndex('logs_token_name_idx').on('logs').column('token_name').execute();
    await db.schema.createIndex('logs_channel_created_idx').on('logs').columns(['channel_id', 'created_at']).execute();
    await db.schema.createIndex('logs_token_id_idx').on('logs').column('token_id').execute();
    await db.schema
        .createTable('options')
        .addColumn('key', str(191), (c) => c.primaryKey())
        .addColumn('value', 'text', req)
        .execute();
    await withId(db.schema.createTable('midjourneys'), dialect)
        .addColumn('code', 'integer', dflt(0))
        .addColumn('user_id', 'integer', dflt(0))
        .addColumn('action', str(40), dflt(''))
        .addColumn('mj_id', str(191), dflt(''))
        .addColumn('prompt', 'text', req)
        .addColumn('prompt_en', 'text', req)
        .addColumn('description', 'text', req)
        .addColumn('state', 'text', req)
        .addColumn('submit_time', 'bigint', dflt(0))
        .addColumn('start_time', 'bigint', dflt(0))
        .addColumn('finish_time', 'bigint', dflt(0))
        .addColumn('image_url', 'text', req)
        .addColumn('status', str(20), dflt(''))
        .addColumn('progress', str(30), dflt(''))
        .addColumn('fail_reason', 'text', req)
        .addColumn('channel_id', 'integer', dflt(0))
        .addColumn('quota', 'bigint', dflt(0))
        .addColumn('buttons', 'text', req)
        .addColumn('properties', 'text', req)
        .execute();
    await db.schema.createIndex('midjourneys_mj_id_idx').on('midjourneys').column('mj_id').execute();
    await db.schema.createIndex('midjourneys_user_idx').on('midjourneys').columns(['user_id', 'submit_time']).execute();
    await db.schema.createIndex('midjourneys_status_idx').on('midjourneys').column('status').execute();
    await withId(db.schema.createTable('tasks'), dialect)
        .addColumn('created_at', 'bigint', dflt(0))
        .addColumn('updated_at', 'bigint', dflt(0))
        .addColumn('task_id', str(191), dflt(''))
        .addColumn('platform', str(30), dflt(''))
        .addColumn('user_id', 'integer', dflt(0))
        .addColumn('channel_id', 'integer', dflt(0))
        .addColumn('quota', 'bigint', dflt(0))
        .addColumn('action', str(40), dflt(''))
        .addColumn('status', str(20), dflt(''))
        .addColumn('fail_reason', 'text', req)
        .addColumn('submit_time', 'bigint', dflt(0))
        .addColumn('start_time', 'bigint', dflt(0))
        .addColumn('finish_time', 'bigint', dflt(0))
        .addColumn('progress', str(20), dflt(''))
        .addColumn('properties', 'text', req)
        .addColumn('data', 'text', req)
        .execute();
    await db.schema.createIndex('tasks_task_id_idx').on('tasks').column('task_id').execute();
    await db.schema.createIndex('tasks_user_idx').on('tasks').columns(['user_id', 'submit_time']).execute();
    await db.schema.createIndex('tasks_status_idx').on('tasks').column('status').execute();
    await withId(db.schema.createTable('quota_data'), dialect)
        .addColumn('user_id', 'integer', dflt(0))
        .addColumn('username', str(64), dflt(''))
        .addColumn('model_name', str(255), dflt(''))
        .addColumn('created_at', 'bigint', dflt(0))
        .addColumn('token_used', 'bigint', dflt(0))
        .addColumn('count', 'bigint', dflt(0))
        .addColumn('quota', 'bigint', dflt(0))
        .execute();
    await db.schema
        .createIndex('quota_data_bucket_uq')
        .on('quota_data')
        .columns(['user_id', 'model_name', 'created_at'])
        .unique()
        .execute();
    await db.schema.createIndex('quota_data_created_idx').on('quota_data').columns(['created_at', 'username']).execute();
    await withId(db.schema.createTable('top_ups'), dialect)
        .addColumn('user_id', 'integer', dflt(0))
        .addColumn('amount', 'bigint', dflt(0))
        .addColumn('money', 'double precision', dflt(0))
        .addColumn('trade_no', str(191), req)
        .addColumn('payment_method', str(20), dflt(''))
        .addColumn('create_time', 'bigint', dflt(0))
        .addColumn('complete_time', 'bigint', dflt(0))
        .addColumn('status', str(20), dflt('pending'))
        .execute();
    await db.schema.createIndex('top_ups_trade_no_uq').on('top_ups').column('trade_no').unique().execute();
    await db.schema.createIndex('top_ups_user_idx').on('top_ups').column('user_id').execute();
}
//# sourceMappingURL=001_initial.js.map