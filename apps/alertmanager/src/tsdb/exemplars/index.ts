export { CircularExemplarStore } from './circular-exemplar-store';
export { ExemplarAppender } from './exemplar-appender';
export {
  EXEMPLAR_MAX_LABEL_SET_LENGTH,
  ExemplarRefusal,
  type Exemplar,
  type SeriesExemplars,
} from './exemplar';
export { ExemplarMetrics } from './exemplar-metrics';
