-- The logger's tables, portable between H2 2.x and PostgreSQL. Widths follow IBM MQ and MFT limits
-- (agent 28, queue manager 48, transfer id 48) and are mirrored in JdbcLogStore's checks: a value
-- too long is rejected, never truncated.

-- Every log message stored, keyed by the SHA-256 of its body so that redelivery stores it once.
CREATE TABLE log_record (
    record_key     VARCHAR(64)              NOT NULL,
    transfer_id    VARCHAR(48)              NOT NULL,
    log_action     VARCHAR(16)              NOT NULL,
    agent_role     VARCHAR(32)              NOT NULL,
    action_time    TIMESTAMP WITH TIME ZONE NOT NULL,
    topic          VARCHAR(1024)            NOT NULL,
    received_time  TIMESTAMP WITH TIME ZONE NOT NULL,
    message_xml    TEXT                     NOT NULL,
    CONSTRAINT log_record_pk PRIMARY KEY (record_key)
);

CREATE INDEX log_record_transfer ON log_record (transfer_id);

-- One row per transfer, updated by every message about it.
CREATE TABLE transfer (
    transfer_id        VARCHAR(48)              NOT NULL,
    source_agent       VARCHAR(28),
    source_qmgr        VARCHAR(48),
    destination_agent  VARCHAR(28),
    destination_qmgr   VARCHAR(48),
    originator_user    VARCHAR(256),
    originator_host    VARCHAR(256),
    job_name           VARCHAR(256),
    state              VARCHAR(16)              NOT NULL,
    result_code        INTEGER,
    supplement         TEXT,
    start_time         TIMESTAMP WITH TIME ZONE NOT NULL,
    end_time           TIMESTAMP WITH TIME ZONE,
    total_items        INTEGER,
    bytes_sent         BIGINT,
    CONSTRAINT transfer_pk PRIMARY KEY (transfer_id)
);

CREATE INDEX transfer_start ON transfer (start_time);
CREATE INDEX transfer_source_agent ON transfer (source_agent);
CREATE INDEX transfer_destination_agent ON transfer (destination_agent);

-- The items of a transfer, from its progress messages.
CREATE TABLE transfer_item (
    transfer_id       VARCHAR(48)   NOT NULL,
    item_index        INTEGER       NOT NULL,
    source            VARCHAR(4096) NOT NULL,
    source_size       BIGINT,
    destination       VARCHAR(4096),
    destination_size  BIGINT,
    transfer_mode     VARCHAR(16),
    checksum_method   VARCHAR(16),
    checksum          VARCHAR(128),
    result_code       INTEGER       NOT NULL,
    supplement        TEXT,
    CONSTRAINT transfer_item_pk PRIMARY KEY (transfer_id, item_index),
    CONSTRAINT transfer_item_transfer FOREIGN KEY (transfer_id) REFERENCES transfer (transfer_id)
);
