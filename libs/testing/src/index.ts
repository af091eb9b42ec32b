export { describeWhen } from './describe-when';
export { getFreePort } from './free-port';
export { waitFor, httpAnswers } from './wait-for';
export { provideRedis, startPrivateRedis, redisAnswers, type TestRedis } from './redis-server';
export { startProcess, runProcess, type RunningProcess } from './child-process';
export { startRedisCluster, type RedisClusterNode, type TestRedisCluster } from './redis-cluster';
