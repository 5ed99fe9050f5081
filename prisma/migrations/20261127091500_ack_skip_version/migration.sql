-- AlterTable
ALTER TABLE "acks" ADD COLUMN     "skip_version" TEXT;
