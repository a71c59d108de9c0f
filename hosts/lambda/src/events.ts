/**
 * The event and result shapes this host handles, written from AWS's documentation:
 * - API Gateway REST API, Lambda proxy integration (payload format 1.0);
 * - API Gateway HTTP API (payload format 2.0), which Lambda Function URLs share;
 * - Application Load Balancer target (single- or multi-value headers);
 * - EventBridge (CloudWatch Events) scheduled event.
 */
export type HeaderMap = Record<string, string | undefined>;
export type MultiValueMap = Record<string, string[] | undefined>;

export interface ApiGatewayV1Event {
  resource: string;
  path: string;
  httpMethod: string;
  headers: HeaderMap | null;
  multiValueHeaders: MultiValueMap | null;
  queryStringParameters: HeaderMap | null;
  multiValueQueryStringParameters: MultiValueMap | null;
  pathParameters?: HeaderMap | null;
  stageVariables?: HeaderMap | null;
  requestContext: {
    requestId: string;
    stage: string;
    identity: { sourceIp: string; userAgent?: string | null };
    elb?: undefined;
    [key: string]: unknown;
  };
  body: string | null;
  isBase64Encoded: boolean;
}

export interface ApiGatewayV2Event {
  version: '2.0';
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: HeaderMap;
  queryStringParameters?: HeaderMap;
  requestContext: {
    domainName: string;
    requestId: string;
    http: { method: string; path: string; protocol: string; sourceIp: string; userAgent: string };
    [key: string]: unknown;
  };
  body?: string;
  isBase64Encoded: boolean;
}

export interface AlbEvent {
  requestContext: { elb: { targetGroupArn: string } };
  httpMethod: string;
  path: string;
  /** Single-value mode; values arrive as the client sent them (not URL-decoded). */
  queryStringParameters?: HeaderMap;
  headers?: HeaderMap;
  /** Multi-value mode (the target group's lambda.multi_value_headers.enabled). */
  multiValueQueryStringParameters?: MultiValueMap;
  multiValueHeaders?: MultiValueMap;
  body: string;
  isBase64Encoded: boolean;
}

export interface ScheduledEvent {
  version: string;
  id: string;
  'detail-type': 'Scheduled Event';
  source: 'aws.events' | 'aws.scheduler' | string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

export type HttpEvent = ApiGatewayV1Event | ApiGatewayV2Event | AlbEvent;
export type LambdaEvent = HttpEvent | ScheduledEvent;

export interface ApiGatewayV1Result {
  statusCode: number;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

export interface ApiGatewayV2Result {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: string;
  isBase64Encoded: boolean;
}

export interface AlbResult {
  statusCode: number;
  statusDescription: string;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

export type HttpResult = ApiGatewayV1Result | ApiGatewayV2Result | AlbResult;

export type EventKind = 'apigateway-v1' | 'apigateway-v2' | 'alb' | 'scheduled';

export function kindOf(event: LambdaEvent): EventKind {
  if ('detail-type' in event && event['detail-type'] === 'Scheduled Event') return 'scheduled';
  if ('version' in event && event.version === '2.0') return 'apigateway-v2';
  if ('requestContext' in event && event.requestContext && 'elb' in event.requestContext && event.requestContext.elb) return 'alb';
  if ('httpMethod' in event) return 'apigateway-v1';
  throw new Error('unrecognised Lambda event: not API Gateway (v1/v2), Function URL, ALB or a scheduled event');
}
