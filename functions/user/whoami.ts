import { nickFor } from '../../shared/domain/identity/caller.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

export const handler = defineEndpoint({
  access: 'login',
  input: noInput(),
  run: ({ caller }) => {
    const user = caller.user!;
    return { id: user.id, name: user.login, real_name: user.realName, nick: nickFor(user) };
  },
});
