import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/apiClient';
import {
  channelBody,
  channelFormValues,
  emptyChannelForm,
  isChannelEdited,
  serverErrors,
  validateChannel,
} from './channelForm';

const parseErrorOf = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${text} parses`);
};

describe('validateChannel (spec §5)', () => {
  it("requires the name and the URL of each type with the client message 'Field is required' (spec §8)", () => {
    expect(validateChannel('slack', emptyChannelForm)).toEqual({
      name: 'Field is required',
      webhookUrl: 'Field is required',
    });
    expect(validateChannel('webhook', emptyChannelForm)).toEqual({
      name: 'Field is required',
      url: 'Field is required',
    });
    expect(validateChannel('alertmanager', { ...emptyChannelForm, name: 'am' })).toEqual({ url: 'Field is required' });
    // Blank is empty: the server trims too.
    expect(validateChannel('webhook', { ...emptyChannelForm, name: '  ', url: ' https://h/x ' })).toEqual({
      name: 'Field is required',
    });
    // The URL a Slack channel does not have is not asked for, nor the webhook URL of the others.
    expect(validateChannel('slack', { ...emptyChannelForm, name: 'ops', webhookUrl: 'https://h/x' })).toEqual({});
    expect(validateChannel('alertmanager', { ...emptyChannelForm, name: 'am', url: 'https://h/x' })).toEqual({});
  });

  it('checks the URL scheme and the payload JSON, whose parse error is the message', () => {
    const errors = validateChannel('webhook', { name: 'x', webhookUrl: '', url: 'ftp://h/x', payload: '{"a": }' });
    expect(errors.url).toBe('unsupported URL protocol scheme: "ftp"');
    // Exactly what JSON.parse says, nothing around it.
    expect(errors.payload).toBe(parseErrorOf('{"a": }'));
    expect(errors.payload).toMatch(/^Unexpected token/);
    expect(validateChannel('webhook', { name: 'x', webhookUrl: '', url: 'https://h/x', payload: '' })).toEqual({});
  });

  it('ignores the payload of an Alertmanager channel (it has none)', () => {
    expect(
      validateChannel('alertmanager', {
        name: 'x',
        webhookUrl: '',
        url: 'https://h/api/v2/alerts',
        payload: 'not json',
      }),
    ).toEqual({});
    expect(channelBody('alertmanager', { name: 'x', webhookUrl: '', url: 'https://h', payload: 'not json' })).toEqual({
      type: 'alertmanager',
      name: 'x',
      params: { url: 'https://h', payload: '' },
    });
  });
});

describe('serverErrors', () => {
  it('puts "path: message" parts at their fields and the rest on the form', () => {
    const err = new ApiError(
      400,
      'invalid_input',
      "name: channel name can't be empty; params.url: url can't be empty; type must be webhook or alertmanager",
    );
    expect(serverErrors('webhook', err)).toEqual({
      fields: { name: "channel name can't be empty", url: "url can't be empty" },
      form: 'type must be webhook or alertmanager',
    });
  });

  it('puts a URL refused by the SSRF guard at the URL field of the type', () => {
    const err = new ApiError(400, 'url_refused', 'localhost resolves to 127.0.0.1, a loopback address');
    expect(serverErrors('slack', err).fields).toEqual({ webhookUrl: err.message });
    expect(serverErrors('webhook', err).fields).toEqual({ url: err.message });
  });

  it('shows anything else on the form', () => {
    expect(serverErrors('slack', new ApiError(403, 'forbidden', 'no'))).toEqual({ fields: {}, form: 'no' });
  });
});

/** A saved webhook channel that has delivered nothing yet; tests set its params. */
const webhookChannel = (name: string) => ({
  id: 1,
  projectId: 1,
  name,
  type: 'webhook' as const,
  state: 'delivering' as const,
  delivery: {
    lastDeliveredAt: null,
    lastError: '',
    lastErrorAt: null,
    consecutiveFailures: 0,
    pending: 0,
    nextAttemptAt: null,
    failed: 0,
  },
});

describe('channelFormValues', () => {
  it('shows a saved payload as indented JSON and a missing one as empty', () => {
    const base = webhookChannel('h');
    expect(channelFormValues({ ...base, params: { url: 'https://h', payload: { a: 1 } } }).payload).toBe(
      '{\n  "a": 1\n}',
    );
    expect(channelFormValues({ ...base, params: { url: 'https://h', payload: null } })).toEqual({
      name: 'h',
      webhookUrl: '',
      url: 'https://h',
      payload: '',
    });
  });
});

describe('isChannelEdited', () => {
  it('tells edits from the saved channel, a payload by its JSON however spaced', () => {
    const channel = { ...webhookChannel('hook'), params: { url: 'https://h/x', payload: { team: 'ops' } } };
    const saved = channelFormValues(channel);
    expect(isChannelEdited(channel, saved)).toBe(false);
    expect(isChannelEdited(channel, { ...saved, payload: '{"team":"ops"}' })).toBe(false);
    expect(isChannelEdited(channel, { ...saved, payload: '{"team":"dev"}' })).toBe(true);
    expect(isChannelEdited(channel, { ...saved, payload: '{"team":' })).toBe(true);
    expect(isChannelEdited(channel, { ...saved, url: 'http://127.0.0.1:1/x' })).toBe(true);
    expect(isChannelEdited(channel, { ...saved, name: 'hook 2' })).toBe(true);
  });
});
