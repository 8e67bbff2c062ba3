import type { EffectLibrary } from './catalogue.js';
import { calls, commandCall, creates } from './define.js';

/** BullMQ: `new Queue(name).add(jobName, data, { jobId })`; a job id (or `deduplication.id`) makes a second add a no-op. */
export const bullmq: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'BullMQ',
  modules: ['bullmq'],
  clients: ['Queue', 'FlowProducer'],
  neutral: ['close', 'on', 'once', 'waitUntilReady', 'disconnect'],
  operations: [
    ...creates({ property: ['jobId', 'deduplication'], argument: 2 }, 'adds a job', 'add'),
    ...creates({ property: 'opts.jobId', argument: 0 }, 'adds a flow of jobs', 'addFlow'),
    // Each job of the batch carries its own options: not visible from the call.
    { call: 'addBulk', kind: 'create', does: 'adds jobs' },
    ...calls('absolute', 'upsertJobScheduler', 'removeJobScheduler', 'remove*', 'drain', 'obliterate', 'clean', 'pause', 'resume'),
    ...calls('read', 'getJob*', 'count', 'getJobCounts', 'getWaiting*', 'getActive*', 'getCompleted*', 'getFailed*', 'getDelayed*'),
  ],
};

/** Inngest: `inngest.send({ name, data, id })`; Inngest drops a second event with the same `id` for 24 hours. */
export const inngest: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Inngest',
  modules: ['inngest'],
  clients: ['Inngest'],
  neutral: ['createFunction', 'setEventKey'],
  operations: creates({ property: 'id', argument: 0 }, 'sends an event', 'send'),
};

/** Amazon SQS: `client.send(new SendMessageCommand({ QueueUrl, MessageBody, MessageDeduplicationId }))` (FIFO queues dedupe on it). */
export const sqs: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Amazon SQS',
  modules: ['@aws-sdk/client-sqs'],
  clients: ['SQSClient', 'SQS'],
  neutral: ['destroy'],
  commands: [
    { name: 'SendMessageCommand', kind: 'create', key: { property: 'MessageDeduplicationId', argument: 0 }, does: 'sends a message' },
    { name: 'SendMessageBatchCommand', kind: 'create', does: 'sends messages' },
    { name: 'ReceiveMessageCommand', kind: 'read' },
    ...['DeleteMessageCommand', 'DeleteMessageBatchCommand', 'ChangeMessageVisibilityCommand', 'PurgeQueueCommand', 'CreateQueueCommand', 'DeleteQueueCommand'].map(
      (name) => ({ name, kind: 'absolute' as const }),
    ),
    ...['GetQueueUrlCommand', 'GetQueueAttributesCommand', 'ListQueuesCommand'].map((name) => ({ name, kind: 'read' as const })),
  ],
  operations: [
    commandCall(),
    ...creates({ property: 'MessageDeduplicationId', argument: 0 }, 'sends a message', 'sendMessage'),
    { call: 'sendMessageBatch', kind: 'create', does: 'sends messages' },
    ...calls('absolute', 'deleteMessage', 'deleteMessageBatch', 'changeMessageVisibility', 'purgeQueue'),
    ...calls('read', 'receiveMessage', 'getQueueUrl', 'getQueueAttributes', 'listQueues'),
  ],
};

/** Amazon SNS: `PublishCommand` (FIFO topics dedupe on `MessageDeduplicationId`). */
export const sns: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Amazon SNS',
  modules: ['@aws-sdk/client-sns'],
  clients: ['SNSClient', 'SNS'],
  commands: [
    { name: 'PublishCommand', kind: 'create', key: { property: 'MessageDeduplicationId', argument: 0 }, does: 'publishes a message' },
    { name: 'PublishBatchCommand', kind: 'create', does: 'publishes messages' },
  ],
  operations: [commandCall(), ...creates({ property: 'MessageDeduplicationId', argument: 0 }, 'publishes a message', 'publish')],
};
