export { RemoteWriteMetrics } from './remote-write-metrics';
export { RemoteWriters, type AppendSource, type RemoteWritersDeps } from './remote-writers';
export {
  RemoteWriteReceiver,
  type ReceiverAppender,
  type ReceiverReply,
  type ReceiverStorage,
} from './remote-write-receiver';
export { oldestSentSegment } from './send-position-file';
