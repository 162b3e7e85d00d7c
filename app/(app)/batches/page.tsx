'use client';
import { Suspense } from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { PageHeader } from '@/components/ui';
import { SubmitPanel } from '@/components/batches/submit-panel';
import { JobDetail } from '@/components/batches/job-detail';
import { JobList } from '@/components/batches/job-list';

/** Batches: submit up to 1000 cases for DRG classification, watch a job's progress, read and download its results. */
function Batches() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const jobId = params.get('job');
  const open = (id: string) => router.replace(`${pathname}?job=${encodeURIComponent(id)}`, { scroll: false });
  return (
    <>
      <PageHeader title="Batches">
        Classify up to 1000 encounters at once. Jobs run in the background; each successfully classified case is billed once, failed cases are free.
      </PageHeader>
      <SubmitPanel onSubmitted={open} />
      {jobId ? <JobDetail key={jobId} jobId={jobId} /> : null}
      <JobList selected={jobId} onSelect={open} />
    </>
  );
}

export default function BatchesPage() {
  return (
    <Suspense fallback={null}>
      <Batches />
    </Suspense>
  );
}
