import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { createOrganization, findOrganization, listUsers, createUser } from '@/server/auth/accounts';
import { createApiKey, listApiKeys, revokeApiKey } from '@/server/auth/keys';
import { listAudit, writeAudit } from '@/server/auth/audit';

/** Record functions on Prisma Client, on both backends: the behaviour the hand-written SQL had. */
let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
});
afterAll(async () => {
  await be?.close();
});

describe(`records through Prisma Client on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const stamp = Date.now().toString(36);

  it('organisation names: case-insensitive lookup and uniqueness; % and _ are not wildcards', async () => {
    const org = await createOrganization(be.db, `Acme_${stamp}`);
    expect(org).toMatchObject({ name: `Acme_${stamp}`, spend_cap_micros: null, sandbox_allowance_micros: '5000000' });
    expect(org.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await findOrganization(be.db, `ACME_${stamp}`))?.id).toBe(org.id);
    const wild = await createOrganization(be.db, `Wild ${stamp}x`);
    expect(await findOrganization(be.db, `Wild ${stamp}_`)).toBeNull(); // '_' must not match any character
    expect(await findOrganization(be.db, `Wild ${stamp}%`)).toBeNull(); // nor '%' any string
    expect(await findOrganization(be.db, `wild ${stamp}X`)).toMatchObject({ id: wild.id });
    expect((await findOrganization(be.db, org.id))?.name).toBe(org.name);
    await expect(createOrganization(be.db, `acme_${stamp.toUpperCase()}`)).rejects.toMatchObject({ status: 409, type: 'organization_exists' });
  });

  it('users: duplicate e-mail is a 409; list in creation order', async () => {
    const org = await createOrganization(be.db, `Users ${stamp}`);
    await createUser(be.db, { orgId: org.id, email: `A-${stamp}@x.test`, password: 'long-enough-pw', role: 'admin' });
    await createUser(be.db, { orgId: org.id, email: `b-${stamp}@x.test`, password: 'long-enough-pw', role: 'coder' });
    await expect(createUser(be.db, { orgId: org.id, email: `a-${stamp}@X.test`, password: 'long-enough-pw', role: 'coder' })).rejects.toMatchObject({
      status: 409,
    });
    expect((await listUsers(be.db, org.id)).map((u) => [u.email, u.role])).toEqual([
      [`a-${stamp}@x.test`, 'admin'],
      [`b-${stamp}@x.test`, 'coder'],
    ]);
  });

  it('keys: a second revocation changes nothing and writes no second audit entry; audit pages by id', async () => {
    const org = await createOrganization(be.db, `Keys ${stamp}`);
    const { view } = await createApiKey(be.db, { orgId: org.id, scopes: ['search'], actor: 'test' });
    const first = await revokeApiKey(be.db, org.id, view.id, 'test');
    const second = await revokeApiKey(be.db, null, view.id, 'someone-else');
    expect(first.status).toBe('revoked');
    expect(second.revoked_at).toBe(first.revoked_at);
    await expect(revokeApiKey(be.db, '00000000-0000-0000-0000-000000000000', view.id, 'x')).rejects.toMatchObject({ status: 404 });
    expect((await listApiKeys(be.db, org.id)).map((k) => [k.id, k.status, k.scopes])).toEqual([[view.id, 'revoked', ['search']]]);
    const audit = await listAudit(be.db, org.id);
    expect(audit.map((a) => a.action)).toEqual(['key.revoke', 'key.create']);
    expect(audit[0]!.details).toMatchObject({ display: view.display });
    for (let i = 0; i < 3; i++) await writeAudit(be.db, { orgId: org.id, actor: 'test', action: `x.${i}` });
    const page1 = await listAudit(be.db, org.id, 2);
    const page2 = await listAudit(be.db, org.id, 2, page1[1]!.id);
    expect([...page1, ...page2].map((a) => a.action)).toEqual(['x.2', 'x.1', 'x.0', 'key.revoke']);
    expect(page2[1]!.details).toMatchObject({ display: view.display });
  });
});
